#include "presetshelf.h"

#include <shoal/displaytext.h>
#include <shoal/scenefile.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>

namespace shoal::presets {
namespace {

QString familyText(BehaviourKind kind)
{
    const std::string_view key = behaviourKey(kind);
    return QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size()));
}

/// A preset file is tiny; anything bigger is read no further (parsePreset names the limit).
constexpr qint64 kReadLimit = 256 * 1024;

} // namespace

QString userFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/Shoal/shoal/presets");
}

QString fileOf(const Preset& preset)
{
    return userFolder() + QLatin1Char('/') + familyText(preset.kind) + QLatin1Char('/') +
           QString::fromStdString(preset.name) + QStringLiteral(".json");
}

Shelf load()
{
    Shelf shelf;
    shelf.presets = builtInPresets();
    std::vector<Preset> own;
    for (BehaviourKind kind : kAllBehaviourKinds) {
        const QDir folder(userFolder() + QLatin1Char('/') + familyText(kind));
        const QStringList files =
            folder.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        for (const QString& name : files) {
            const QString path = folder.filePath(name);
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly)) {
                shelf.problems.push_back(path.toStdString() + ": cannot read the file: " +
                                         file.errorString().toStdString());
                continue;
            }
            const QByteArray bytes = file.read(kReadLimit + 1);
            Expected<Preset> preset = parsePreset(bytes.toStdString(), path.toStdString());
            if (!preset) {
                shelf.problems.push_back(preset.error().message);
                continue;
            }
            const std::string expected = (QFileInfo(name).completeBaseName()).toStdString();
            if (preset->kind != kind || preset->name != expected) {
                shelf.problems.push_back(
                    path.toStdString() + ": holds the " + std::string(behaviourKey(preset->kind)) +
                    " preset " + quotedName(preset->name) + "; a preset's file is " +
                    fileOf(*preset).toStdString() + " (rename the file or the preset)");
                continue;
            }
            if (findPreset(builtInPresets(), preset->kind, preset->name)) {
                shelf.problems.push_back(path.toStdString() + ": " + quotedName(preset->name) +
                                         " is the name of a built-in preset; rename it");
                continue;
            }
            own.push_back(std::move(*preset));
        }
    }
    shelf.presets.insert(shelf.presets.end(), own.begin(), own.end());
    return shelf;
}

std::optional<Error> saveUserPreset(const Preset& preset)
{
    if (std::optional<Error> error = checkPresetName(preset.name))
        return error;
    if (findPreset(builtInPresets(), preset.kind, preset.name))
        return Error{quotedName(preset.name) + " is the name of a built-in " +
                     std::string(behaviourKey(preset.kind)) + " preset; choose another name"};
    const QString path = fileOf(preset);
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return Error{path.toStdString() + ": cannot create the folder " +
                     QFileInfo(path).absolutePath().toStdString()};
    Preset own = preset;
    own.builtIn = false;
    return writeFileAtomically(path.toStdString(), serializePreset(own));
}

std::optional<Error> removeUserPreset(const Preset& preset)
{
    if (preset.builtIn)
        return Error{quotedName(preset.name) + " is built in and cannot be deleted"};
    QFile file(fileOf(preset));
    if (!file.exists())
        return std::nullopt;
    if (!file.remove())
        return Error{fileOf(preset).toStdString() +
                     ": cannot delete: " + file.errorString().toStdString()};
    return std::nullopt;
}

} // namespace shoal::presets
