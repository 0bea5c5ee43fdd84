#pragma once
/// Text from the runtime (std::string, UTF-8) as Qt's: the editor's one conversion helper.

#include <QString>

#include <string>

namespace shoal::ui {

/// A runtime string (UTF-8) as a QString.
inline QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace shoal::ui
