#pragma once
/// Errors as values: the core API never lets an exception escape.

#include <shoal/export.h>
#include <string>
#include <utility>
#include <variant>

namespace shoal {

/// A message a user can act on: it names the file, line/column or field, and the rule broken.
struct SHOAL_API Error
{
    std::string message;
};

/// Either a value or an Error (a small stand-in for C++23 std::expected).
template <class T> class Expected
{
public:
    Expected(T value) : m_data(std::move(value)) {}
    Expected(Error error) : m_data(std::move(error)) {}

    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(m_data); }
    const T& value() const { return std::get<0>(m_data); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const Error& error() const { return std::get<1>(m_data); }

private:
    std::variant<T, Error> m_data;
};

} // namespace shoal
