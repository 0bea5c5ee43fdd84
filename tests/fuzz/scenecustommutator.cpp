// libFuzzer's hooks for the scene harnesses: mutations and cross-overs that keep a scene file
// JSON (jsonmutator.h), mixed with libFuzzer's own byte mutations (which use the -dict
// tokens), so that syntax errors, truncations and odd bytes are still explored.

#include "jsonmutator.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t maxSize);

namespace {

/// Writes `text` back into libFuzzer's buffer; false when it does not fit.
bool putBack(const std::string& text, std::uint8_t* data, std::size_t maxSize, std::size_t* size)
{
    if (text.size() > maxSize)
        return false;
    std::memcpy(data, text.data(), text.size());
    *size = text.size();
    return true;
}

} // namespace

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t maxSize, unsigned int seed)
{
    using shoal::fuzz::MutationStyle;
    std::mt19937_64 random(seed);
    // Some mutations are libFuzzer's: a structural mutator alone never writes bad JSON. One
    // in four for the parser, one in ten for a harness that wants scenes that load.
    const unsigned bytesOneIn =
        shoal::fuzz::kSceneMutationStyle == MutationStyle::Anything ? 4 : 10;
    if (random() % bytesOneIn != 0) {
        std::string text(reinterpret_cast<const char*>(data), size);
        if (shoal::fuzz::mutateJsonText(text, random, shoal::fuzz::kSceneMutationStyle) &&
            putBack(text, data, maxSize, &size))
            return size;
    }
    return LLVMFuzzerMutate(data, size, maxSize);
}

extern "C" std::size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* data1, std::size_t size1,
                                                 const std::uint8_t* data2, std::size_t size2,
                                                 std::uint8_t* out, std::size_t maxOutSize,
                                                 unsigned int seed)
{
    std::mt19937_64 random(seed);
    std::string text(reinterpret_cast<const char*>(data1), size1);
    const std::string other(reinterpret_cast<const char*>(data2), size2);
    std::size_t size = 0;
    if (shoal::fuzz::crossOverJsonTexts(text, other, random) &&
        putBack(text, out, maxOutSize, &size))
        return size;
    // Not JSON (or too long): half of one, then half of the other.
    const std::size_t first = std::min(size1 / 2, maxOutSize);
    const std::size_t second = std::min(size2 - size2 / 2, maxOutSize - first);
    std::memcpy(out, data1, first);
    std::memcpy(out + first, data2 + size2 / 2, second);
    return first + second;
}
