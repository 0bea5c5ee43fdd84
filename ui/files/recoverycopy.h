#pragma once
/// One autosaved recovery copy on disk, in RecoveryCopy::directory(): recovery-<n>.json (the
/// scene as autosaved), recovery-<n>.json.ini (the file the edits belong to and when they were
/// written) and recovery-<n>.json.lock, a QLockFile held for as long as the RecoveryCopy
/// lives. Every running editor claims a slot of its own, the first free one, so several
/// instances autosave side by side. A copy whose lock no running instance holds was left by
/// one that did not close normally (a crash, kill -9, a logout that killed it); the next
/// start claims it to offer it, so no two instances offer the same copy.

#include <shoal/scenedesc.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QString>

#include <memory>
#include <vector>

class QLockFile;

namespace shoal::ui {

/// A recovery copy and its lock (see the file comment).
class RecoveryCopy
{
    Q_DECLARE_TR_FUNCTIONS(RecoveryCopy)

public:
    /// Slots an instance may claim: recovery-1.json to recovery-<kMaxSlots>.json.
    static constexpr int kMaxSlots = 64;

    /// Where the copies are: QStandardPaths::AppDataLocation.
    static QString directory();
    /// The first slot that no running instance holds and no leftover copy fills, locked for
    /// this instance; null when there is none (the folder cannot be made, all are taken).
    static std::unique_ptr<RecoveryCopy> claimFreeSlot();
    /// Every copy whose instance is gone, newest first, each locked for the caller. Slots a
    /// running instance holds (this one's own among them) are never listed. Also finds the
    /// single recovery.json of editors from before the slots.
    static std::vector<std::unique_ptr<RecoveryCopy>> claimLeftovers();

    /// Releases the lock; the copy stays.
    ~RecoveryCopy();
    RecoveryCopy(const RecoveryCopy&) = delete;
    RecoveryCopy& operator=(const RecoveryCopy&) = delete;

    QString filePath() const { return m_path; }
    bool exists() const;
    /// From the description: the file the edits were made to (empty: an untitled level).
    QString originalPath() const;
    /// From the description: when the copy was written.
    QDateTime savedAt() const;
    /// Deletes the copy and its description; the lock stays held.
    void remove() const;

    /// Writes `scene` as the copy at `path` (atomically, through writeSceneFile()), then its
    /// description. Empty, or why it failed. Uses only its arguments, so the autosave calls it
    /// on a worker thread.
    static QString write(const QString& path, const SceneDesc& scene, const QString& originalPath);

private:
    RecoveryCopy(QString path, std::unique_ptr<QLockFile> lock);

    QString m_path;
    std::unique_ptr<QLockFile> m_lock;
};

} // namespace shoal::ui
