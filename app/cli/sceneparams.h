#pragma once
/// What sweep and tune share on the command line: whole-number options and the one scene
/// such a command reads with the file it writes. The scene parameters and run lengths
/// themselves are the experiments library's (sceneparam.h).

#include "clisupport.h"

#include <sceneparam.h>

#include <QCommandLineParser>

#include <string>

namespace shoal::cli {

using experiments::defaultRunSteps;
using experiments::findSceneParam;
using experiments::SceneParam;

/// A whole-number option in [low, high], or `fallback` when it is not given; the Error reads
/// "--NAME 'TEXT' must be a whole number in [low, high]".
Expected<qint64> wholeOption(const QCommandLineParser& parser, const QCommandLineOption& option,
                             qint64 low, qint64 high, qint64 fallback);

/// The one scene a command reads (the positional argument, or the demo) and the --out file it
/// writes, which must be named and must not be the scene; prints the refusal (prefixed with
/// `command`) and returns nothing on bad input.
std::optional<CheckedScene> loadSceneWithOutput(const QCommandLineParser& parser,
                                                const QString& outPath, const std::string& command);

} // namespace shoal::cli
