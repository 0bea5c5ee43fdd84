#pragma once
/// What became of a harness's inputs (refused, accepted, run...), counted and printed when the
/// fuzzer exits; scripts/fuzz shows the line. A run count alone does not say whether the
/// inputs got past the first check.

#include <cstddef>
#include <cstdio>
#include <initializer_list>
#include <vector>

namespace shoal::fuzz {

class OutcomeTally
{
public:
    /// `outcomes` name what count(i) counts, in order.
    OutcomeTally(const char* harness, std::initializer_list<const char*> outcomes)
        : m_harness(harness), m_names(outcomes), m_counts(m_names.size(), 0)
    {
    }
    ~OutcomeTally()
    {
        std::fprintf(stderr, "%s outcomes:", m_harness);
        for (std::size_t i = 0; i < m_names.size(); ++i)
            std::fprintf(stderr, "%s %ld %s", i == 0 ? "" : ",", m_counts[i], m_names[i]);
        std::fprintf(stderr, "\n");
    }
    OutcomeTally(const OutcomeTally&) = delete;
    OutcomeTally& operator=(const OutcomeTally&) = delete;

    void count(std::size_t outcome) { ++m_counts[outcome]; }

private:
    const char* m_harness;
    std::vector<const char*> m_names;
    std::vector<long> m_counts;
};

} // namespace shoal::fuzz
