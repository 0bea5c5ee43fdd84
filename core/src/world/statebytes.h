#pragma once
/// The bytes of World::snapshot(): values and arrays written one after another in the
/// machine's own byte order (a snapshot says which in its header), and read back with every
/// length checked, so a short or damaged payload is refused instead of read past its end.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace shoal {

/// Appends values and arrays to a byte buffer.
class StateWriter
{
public:
    explicit StateWriter(std::vector<std::uint8_t>& out) : m_out(out) {}

    template <class T> void value(const T& v)
    {
        static_assert(std::is_trivially_copyable_v<T>, "plain values only");
        const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
        m_out.insert(m_out.end(), p, p + sizeof(T));
    }
    /// Its length, then its elements.
    template <class T> void array(const std::vector<T>& v)
    {
        static_assert(std::is_trivially_copyable_v<T>, "plain values only");
        value(static_cast<std::uint64_t>(v.size()));
        const auto* p = reinterpret_cast<const std::uint8_t*>(v.data());
        m_out.insert(m_out.end(), p, p + v.size() * sizeof(T));
    }
    /// One member of every element, written as array() writes an array of that member's
    /// values: a struct of arrays kept as an array of structs saves the same bytes.
    template <class S, class A, class T> void field(const std::vector<S, A>& v, T S::*member)
    {
        static_assert(std::is_trivially_copyable_v<T>, "plain values only");
        value(static_cast<std::uint64_t>(v.size()));
        std::size_t at = m_out.size();
        m_out.resize(at + v.size() * sizeof(T));
        for (const S& item : v) {
            std::memcpy(m_out.data() + at, &(item.*member), sizeof(T));
            at += sizeof(T);
        }
    }
    void flag(bool b) { value(static_cast<std::uint8_t>(b ? 1 : 0)); }

private:
    std::vector<std::uint8_t>& m_out;
};

/// Reads what a StateWriter wrote. Once a read would run past the end (or an array is longer
/// than what is left), every later read fails too and ok() is false.
class StateReader
{
public:
    /// Reads `size` bytes written by a runtime of snapshot format `version` (the newest when
    /// not given): what an older format lacks, the readers fill in as that runtime behaved.
    StateReader(const std::uint8_t* data, std::size_t size,
                std::uint32_t version = ~std::uint32_t(0))
        : m_data(data), m_size(size), m_version(version)
    {
    }
    /// Whether the bytes come from a format older than `version`.
    bool olderThan(std::uint32_t version) const { return m_version < version; }

    template <class T> bool value(T& v)
    {
        static_assert(std::is_trivially_copyable_v<T>, "plain values only");
        if (!m_ok || m_size - m_at < sizeof(T))
            return m_ok = false;
        std::memcpy(&v, m_data + m_at, sizeof(T));
        m_at += sizeof(T);
        return true;
    }
    template <class T> bool array(std::vector<T>& v)
    {
        std::uint64_t n = 0;
        if (!value(n) || n > (m_size - m_at) / sizeof(T))
            return m_ok = false;
        v.resize(static_cast<std::size_t>(n));
        if (n > 0)
            std::memcpy(v.data(), m_data + m_at, static_cast<std::size_t>(n) * sizeof(T));
        m_at += static_cast<std::size_t>(n) * sizeof(T);
        return true;
    }
    /// Reads what StateWriter::field wrote into that member of every element; the first
    /// field read sizes `v`, a later one of another length fails.
    template <class S, class A, class T> bool field(std::vector<S, A>& v, T S::*member, bool first)
    {
        std::uint64_t n = 0;
        if (!value(n) || n > (m_size - m_at) / sizeof(T) || (!first && n != v.size()))
            return m_ok = false;
        if (first)
            v.resize(static_cast<std::size_t>(n));
        for (S& item : v) {
            std::memcpy(&(item.*member), m_data + m_at, sizeof(T));
            m_at += sizeof(T);
        }
        return true;
    }
    bool flag(bool& b)
    {
        std::uint8_t v = 0;
        if (!value(v))
            return false;
        b = v != 0;
        return true;
    }
    /// Whether every read so far stayed inside the bytes.
    bool ok() const { return m_ok; }
    std::size_t remaining() const { return m_size - m_at; }

private:
    const std::uint8_t* m_data;
    std::size_t m_size;
    std::uint32_t m_version;
    std::size_t m_at = 0;
    bool m_ok = true;
};

} // namespace shoal
