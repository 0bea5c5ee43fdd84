#pragma once
/// The shoal-cli commands. Each takes its arguments (program name first, then the options
/// after the command word) and returns the process exit code (see ExitCode).

#include <QStringList>

namespace shoal::cli {

int validateCommand(const QStringList& arguments);
int runCommand(const QStringList& arguments);
int replayCommand(const QStringList& arguments);
int checkCommand(const QStringList& arguments);
int sweepCommand(const QStringList& arguments);
int tuneCommand(const QStringList& arguments);
int benchCommand(const QStringList& arguments);
int presetsCommand(const QStringList& arguments);
int importCommand(const QStringList& arguments);

} // namespace shoal::cli
