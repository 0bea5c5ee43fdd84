#include <shoal/version.h>

namespace shoal {

const char* version()
{
    return SHOAL_VERSION_STRING;
}

int versionNumber()
{
    return SHOAL_VERSION_NUMBER;
}

} // namespace shoal
