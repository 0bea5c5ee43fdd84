// The fuzzers' structure-aware scene mutator (jsonmutator.h), run without libFuzzer in the
// Release suite: long chains of mutations and cross-overs of the demo and of every scene in
// tests/data never throw and always give JSON. A mutator that throws stops the fuzz stage
// on itself (libFuzzer reports a crash of the harness), so it must hold for every document
// it can make, whatever earlier mutations turned its values into.

#include "jsonmutator.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QtTest>

#include <exception>
#include <random>
#include <string>
#include <vector>

// jsonmutator.h asks each program that links it for the style of its harness.
const shoal::fuzz::MutationStyle shoal::fuzz::kSceneMutationStyle =
    shoal::fuzz::MutationStyle::MostlyValid;

namespace {

using shoal::fuzz::MutationStyle;

std::vector<std::string> seedScenes()
{
    std::vector<std::string> texts;
    QStringList paths{QStringLiteral(SHOAL_DEMO_SCENE)};
    const QDir scenes(QStringLiteral(SHOAL_TEST_DATA_DIR "/scenes"));
    for (const QString& name : scenes.entryList({QStringLiteral("*.json")}, QDir::Files))
        paths << scenes.filePath(name);
    for (const QString& path : paths) {
        QFile file(path);
        if (file.open(QIODevice::ReadOnly))
            texts.push_back(file.readAll().toStdString());
    }
    return texts;
}

bool isJson(const std::string& text)
{
    return !nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false).is_discarded();
}

} // namespace

class TestJsonMutator : public QObject
{
    Q_OBJECT
private slots:
    void chainsOfMutationsNeverThrow_data()
    {
        QTest::addColumn<int>("style");
        QTest::newRow("anything") << int(MutationStyle::Anything);
        QTest::newRow("mostly valid") << int(MutationStyle::MostlyValid);
    }

    /// Each seed scene is mutated 150 times in a row, twelve times over (so values of every type
    /// end up where the format expects another), with a cross-over from another scene now and then.
    void chainsOfMutationsNeverThrow()
    {
        QFETCH(int, style);
        const std::vector<std::string> seeds = seedScenes();
        QVERIFY2(seeds.size() >= 5, "the demo and the scenes of tests/data/scenes");
        for (std::size_t s = 0; s < seeds.size(); ++s) {
            for (std::uint64_t chain = 0; chain < 12; ++chain) {
                std::mt19937_64 random(1000 * s + chain);
                std::string text = seeds[s];
                for (int i = 0; i < 150; ++i) {
                    const std::string before = text;
                    try {
                        const bool json =
                            random() % 8 == 0
                                ? shoal::fuzz::crossOverJsonTexts(
                                      text, seeds[random() % seeds.size()], random)
                                : shoal::fuzz::mutateJsonText(text, random, MutationStyle(style));
                        QVERIFY2(json, "a JSON document stays one");
                    } catch (const std::exception& error) {
                        QFAIL(qPrintable(QStringLiteral("seed scene %1, chain %2, mutation %3 "
                                                        "threw: %4\nthe document:\n%5")
                                             .arg(s)
                                             .arg(chain)
                                             .arg(i)
                                             .arg(QString::fromUtf8(error.what()))
                                             .arg(QString::fromStdString(before))));
                    }
                    QVERIFY2(isJson(text), text.c_str());
                    if (text.size() > 200000)
                        text = seeds[s]; // grown by copies: start again from the seed
                }
            }
        }
    }

    /// What the fuzz stage found (CI, fuzz_load_and_run): a "points" list whose first point
    /// is a pair but another is an object.
    void pointsThatAreNotPairs()
    {
        const std::string scene =
            R"({"walls": [{"points": [[0, 0], {"x": 1, "y": 2}, [3, 4], 5, [6]]}]})";
        for (std::uint64_t seed = 0; seed < 2000; ++seed) {
            std::mt19937_64 random(seed);
            std::string text = scene;
            try {
                QVERIFY(shoal::fuzz::mutateJsonText(text, random, MutationStyle::MostlyValid));
            } catch (const std::exception& error) {
                QFAIL(qPrintable(QStringLiteral("seed %1 threw: %2")
                                     .arg(seed)
                                     .arg(QString::fromUtf8(error.what()))));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestJsonMutator)
#include "test_jsonmutator.moc"
