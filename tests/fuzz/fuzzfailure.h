#pragma once
/// How a harness reports a broken promise of the code it fuzzes (a crash, a leak or undefined
/// behaviour the sanitizers report themselves): the promise and what broke it go to stderr,
/// then abort(), which libFuzzer records as a crash and saves the input of.

#include <cstdio>
#include <cstdlib>
#include <string>

namespace shoal::fuzz {

[[noreturn]] inline void failPromise(const char* promise, const std::string& detail)
{
    std::fprintf(stderr, "shoal fuzz: broken promise: %s\n  %s\n", promise, detail.c_str());
    std::abort();
}

} // namespace shoal::fuzz
