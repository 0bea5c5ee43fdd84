// Whole-number options and the scene-in/file-out start that sweep and tune share.

#include "sceneparams.h"

namespace shoal::cli {

Expected<qint64> wholeOption(const QCommandLineParser& parser, const QCommandLineOption& option,
                             qint64 low, qint64 high, qint64 fallback)
{
    if (!parser.isSet(option))
        return fallback;
    bool ok = false;
    const qint64 value = parser.value(option).toLongLong(&ok);
    if (!ok || value < low || value > high)
        return Error{"--" + option.names().first().toStdString() + " '" +
                     parser.value(option).toStdString() + "' must be a whole number in [" +
                     std::to_string(low) + ", " + std::to_string(high) + "]"};
    return value;
}

std::optional<CheckedScene> loadSceneWithOutput(const QCommandLineParser& parser,
                                                const QString& outPath, const std::string& command)
{
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        printError(command + ": takes one scene, got " + std::to_string(positional.size()));
        return std::nullopt;
    }
    const SceneSource source = sceneSource(positional.isEmpty() ? QString() : positional.first());
    if (outPath.isEmpty()) {
        printError(command + ": needs --out FILE");
        return std::nullopt;
    }
    if (sameFile(outPath, source.path)) {
        printError(command + ": --out " + outPath.toStdString() +
                   " is the scene; it would be overwritten");
        return std::nullopt;
    }
    auto loaded = loadScene(source);
    if (!loaded) {
        printError(loaded.error().message);
        return std::nullopt;
    }
    return std::move(*loaded);
}

} // namespace shoal::cli
