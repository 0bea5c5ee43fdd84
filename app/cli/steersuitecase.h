#pragma once
/// Reads a SteerSuite test case (SteerBenchTestCase XML, SteerSuite's testcases/ and
/// TestCaseSchema.xsd) into a Shoal scene (shoal-cli import steersuite; docs/cli.md,
/// "import"). SteerSuite's ground is its x-z plane: Shoal's (x, y) is SteerSuite's (x, -z),
/// a turn of the plane, not a mirror, so what turns left in one turns left in the other.

#include <shoal/expected.h>
#include <shoal/scenedesc.h>

#include <cstdint>
#include <string>
#include <vector>

namespace shoal::cli {

/// The scene a case becomes, and every part of the case that did not map (each a line for
/// the user: nothing is dropped silently).
struct SteerSuiteImport
{
    SceneDesc scene;
    std::vector<std::string> warnings;
};

/// Converts the case `xml` read from `fileName`. Random positions, directions, goals and
/// obstacle regions are drawn from a SplitMix64 stream seeded with `seed`, so one seed gives
/// one scene on every machine. A malformed or unusable case gives an Error
/// "fileName:line:column: what is wrong".
Expected<SteerSuiteImport> importSteerSuiteCase(const std::string& xml, const std::string& fileName,
                                                std::uint64_t seed);

} // namespace shoal::cli
