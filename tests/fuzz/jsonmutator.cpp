#include "jsonmutator.h"

#include <shoal/behaviourkind.h>
#include <shoal/paramspec.h>
#include <shoal/scenedesc.h>
#include <shoal/scenelimits.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

namespace shoal::fuzz {

namespace {

// Ordered, so a mutant keeps the key order of its parent and reads like a scene file.
using Json = nlohmann::ordered_json;

/// A value of the document, its parent, the key it sits under and the key its parent sits
/// under (array elements take their array's key: every number of "points" has the key
/// "points", every group the key "groups").
struct Node
{
    Json* value = nullptr;
    Json* parent = nullptr;
    std::string key;
    std::string parentKey;
};

void collectNodes(Json& value, Json* parent, const std::string& key, const std::string& parentKey,
                  std::vector<Node>& out)
{
    out.push_back({&value, parent, key, parentKey});
    if (value.is_object()) {
        for (auto it = value.begin(); it != value.end(); ++it)
            collectNodes(it.value(), &value, it.key(), key, out);
    } else if (value.is_array()) {
        for (Json& element : value)
            collectNodes(element, &value, key, parentKey, out);
    }
}

std::optional<Json> parseJson(const std::string& text)
{
    Json document = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (document.is_discarded())
        return std::nullopt;
    return document;
}

/// The document as text, in one of the layouts a file may have (one line or indented), so
/// the line and column of messages vary too.
std::string writeJson(const Json& document, std::mt19937_64& random)
{
    const int indents[] = {-1, 0, 2, 4};
    return document.dump(indents[random() % 4], ' ', false, Json::error_handler_t::replace);
}

/// Every key a scene file has, every parameter key of every table, and a few near misses.
const std::vector<std::string>& sceneKeys()
{
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> all = {
            "format",    "version", "name",     "bounds",    "simulation", "player", "walls",
            "obstacles", "pickups", "groups",   "min",       "max",        "dt",     "seed",
            "enabled",   "group",   "position", "heading",   "params",     "closed", "points",
            "shape",     "center",  "radius",   "kind",      "color",      "accent", "spawn",
            "count",     "agents",  "target",   "chase",     "collision",  "layers", "mask",
            "priority",  "goal",    "Groups",   "keepWieght"};
        for (const ParamSpec& spec : playerParamSpecs())
            all.push_back(spec.key);
        for (BehaviourKind kind : kAllBehaviourKinds)
            for (const ParamSpec& spec : paramSpecs(kind))
                all.push_back(spec.key);
        return all;
    }();
    return keys;
}

/// Strings the format gives a meaning to, and some it refuses.
const std::vector<std::string>& sceneWords()
{
    static const std::vector<std::string> words = [] {
        std::vector<std::string> all = {"shoal-scene", "polygon",   "circle",    "fish",    "coin",
                                        "#ff8800",     "#12345678", "#fff",      "#gg0000", "",
                                        " ",           "\xc3\xa9",  "tiled-map", "boids"};
        all.push_back(std::string("nul\0byte", 8)); // written as \u0000 in the file
        for (BehaviourKind kind : kAllBehaviourKinds)
            all.emplace_back(behaviourKey(kind));
        return all;
    }();
    return words;
}

/// Numbers on and just past the limits the scene checks enforce, and the troublesome ones of
/// floating point (signed zero, denormals, beyond float, beyond 2^53).
const std::vector<double>& limitNumbers()
{
    static const std::vector<double> numbers = {
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        2.0,
        3.0,
        4.0,
        100.0,
        -100.0,
        1e-9,
        5e-324,
        1e300,
        -1e300,
        3.5e38,
        kMaxCoordinate,
        std::nextafter(kMaxCoordinate, 1e308),
        -kMaxCoordinate,
        kMaxWorldExtent,
        kGeometryMargin,
        kGeometryPieceLength,
        kMinStep,
        std::nextafter(kMinStep, 0.0),
        kMaxStep,
        kMinPointSpacing,
        std::nextafter(kMinPointSpacing, 0.0),
        kMaxHeadingDegrees,
        std::nextafter(kMaxHeadingDegrees, 1e308),
        double(kMaxSpawnCount),
        double(kMaxSpawnCount) + 1.0,
        double(kMaxAgents),
        double(kMaxGroups),
        double(kMaxShapePoints),
        double(kMaxCollisionPriority),
        2147483648.0,
        4294967296.0,
        9007199254740993.0,
        9223372036854775808.0,
        18446744073709551616.0,
    };
    return numbers;
}

/// The spec of a parameter key in any table (the first that has it), or null.
const ParamSpec* specOfKey(const std::string& key)
{
    for (const ParamSpec& spec : playerParamSpecs())
        if (spec.key == key)
            return &spec;
    for (BehaviourKind kind : kAllBehaviourKinds)
        for (const ParamSpec& spec : paramSpecs(kind))
            if (spec.key == key)
                return &spec;
    return nullptr;
}

bool isCoordinateKey(const std::string& key)
{
    return key == "points" || key == "center" || key == "position" || key == "min" ||
           key == "max" || key == "target";
}

/// One mutation of one document: its values, the names of its groups, its bounds, and the
/// generator every choice comes from.
class SceneMutation
{
public:
    SceneMutation(Json& document, std::mt19937_64& random, MutationStyle style)
        : m_random(random), m_style(style)
    {
        collectNodes(document, nullptr, std::string(), std::string(), m_nodes);
        for (const Node& node : m_nodes)
            if (node.key == "name" && node.parentKey == "groups" && node.value->is_string())
                m_groupNames.push_back(node.value->get<std::string>());
        readBounds(document);
    }

    /// Applies one mutation (tries a few values until one changes).
    void apply()
    {
        for (int attempt = 0; attempt < 16; ++attempt) {
            const Node node = m_nodes[below(m_nodes.size())];
            // A mostly-valid run still tries a value on or past a limit now and then: the
            // runtime must cope with every scene that loads, the extreme ones first.
            const bool anything = m_style == MutationStyle::Anything || oneIn(6);
            if (anything ? mutateAnyhow(node) : mutatePlausibly(node))
                return;
        }
    }

private:
    std::size_t below(std::size_t n) { return n == 0 ? 0 : std::size_t(m_random() % n); }
    bool oneIn(std::size_t n) { return below(n) == 0; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * double(below(100001)) / 1e5; }
    template <class T> const T& pickFrom(const std::vector<T>& values)
    {
        return values[below(values.size())];
    }
    Json copyOfSomeValue() { return *m_nodes[below(m_nodes.size())].value; }

    void readBounds(const Json& document)
    {
        const auto corner = [](const Json& point, double fallbackX, double fallbackY) {
            if (point.is_array() && point.size() == 2 && point[0].is_number() &&
                point[1].is_number())
                return std::pair<double, double>(point[0].get<double>(), point[1].get<double>());
            return std::pair<double, double>(fallbackX, fallbackY);
        };
        if (document.is_object() && document.contains("bounds") && document["bounds"].is_object()) {
            const Json& bounds = document["bounds"];
            std::tie(m_minX, m_minY) = corner(bounds.value("min", Json()), m_minX, m_minY);
            std::tie(m_maxX, m_maxY) = corner(bounds.value("max", Json()), m_maxX, m_maxY);
        }
    }
    Json pointInside()
    {
        return Json::array({std::round(uniform(m_minX, m_maxX) * 100.0) / 100.0,
                            std::round(uniform(m_minY, m_maxY) * 100.0) / 100.0});
    }

    /// Whole numbers go out as integers half the time: counts, versions and seeds are read
    /// as integers, and 20.0 is not the same text as 20.
    Json numberJson(double value)
    {
        if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.2e18 &&
            oneIn(2))
            return Json(static_cast<std::int64_t>(value));
        return Json(value);
    }

    // --- Anything: every way a value can go wrong ------------------------------------------

    bool mutateAnyhow(const Node& node)
    {
        Json& value = *node.value;
        if (oneIn(8)) {
            value = oneIn(2) ? otherType() : copyOfSomeValue();
            return true;
        }
        if (value.is_number() || value.is_null()) {
            value = limitOrNudge(node);
        } else if (value.is_string()) {
            value = anyString(node);
        } else if (value.is_boolean()) {
            value = !value.get<bool>();
        } else if (value.is_array()) {
            reshapeArray(value);
        } else if (value.is_object()) {
            rekeyObject(value);
        }
        return true;
    }

    /// Another kind of value: where the reader expects one type, every other must be refused.
    Json otherType()
    {
        switch (below(6)) {
        case 0:
            return Json();
        case 1:
            return Json::object();
        case 2:
            return Json::array();
        case 3:
            return Json(std::string("1"));
        case 4:
            return Json(true);
        default:
            return Json::array({0, 0, 0});
        }
    }

    /// A limit, a parameter's range end or just past it, or a large change of the value.
    Json limitOrNudge(const Node& node)
    {
        const double current = node.value->is_number() ? node.value->get<double>() : 1.0;
        const ParamSpec* spec = node.parentKey == "params" ? specOfKey(node.key) : nullptr;
        if (spec && oneIn(2)) {
            const double ends[] = {spec->minValue, spec->maxValue, spec->minValue - spec->step,
                                   spec->maxValue + spec->step};
            return numberJson(ends[below(4)]);
        }
        switch (below(3)) {
        case 0:
            return numberJson(pickFrom(limitNumbers()));
        case 1: {
            const double factors[] = {2.0, 0.5, -1.0, 10.0, 0.1, 1000.0};
            return numberJson(current * factors[below(6)]);
        }
        default:
            return numberJson(std::nextafter(current, oneIn(2) ? 1e308 : -1e308));
        }
    }

    Json anyString(const Node& node)
    {
        std::string text = node.value->is_string() ? node.value->get<std::string>() : "";
        switch (below(4)) {
        case 0:
            return pickFrom(sceneWords());
        case 1:
            return m_groupNames.empty() ? text + "x" : pickFrom(m_groupNames);
        case 2: // a typo: one character dropped, doubled or changed
            if (!text.empty()) {
                const std::size_t at = below(text.size());
                switch (below(3)) {
                case 0:
                    text.erase(at, 1);
                    break;
                case 1:
                    text.insert(at, 1, text[at]);
                    break;
                default:
                    text[at] = static_cast<char>(text[at] ^ 0x20);
                    break;
                }
            }
            return text;
        default:
            return pickFrom(sceneKeys());
        }
    }

    void reshapeArray(Json& array)
    {
        const std::size_t size = array.size();
        switch (below(size == 0 ? 2 : 7)) {
        case 0: { // a copy of some value of the document (the array itself, even), appended
            Json copy = copyOfSomeValue();
            array.push_back(std::move(copy));
            break;
        }
        case 1:
            array.push_back(numberJson(pickFrom(limitNumbers())));
            break;
        case 2:
            array.erase(array.begin() + std::ptrdiff_t(below(size)));
            break;
        case 3: { // one element twice (a repeated point, two groups of one name)
            Json copy = array[below(size)];
            array.insert(array.begin() + std::ptrdiff_t(below(size + 1)), std::move(copy));
            break;
        }
        case 4:
            std::swap(array[below(size)], array[below(size)]);
            break;
        case 5: // every element twice: more points, walls, groups (while it stays small)
            if (size <= 64) {
                const Json copy = array;
                for (const Json& element : copy)
                    array.push_back(element);
            }
            break;
        default:
            if (oneIn(2))
                array.clear();
            else
                std::reverse(array.begin(), array.end());
            break;
        }
    }

    void rekeyObject(Json& object)
    {
        if (!object.empty() && oneIn(3)) { // a key removed
            auto it = object.begin();
            std::advance(it, std::ptrdiff_t(below(object.size())));
            object.erase(it);
            return;
        }
        if (!object.empty() && oneIn(2)) { // a key renamed (its value kept)
            auto it = object.begin();
            std::advance(it, std::ptrdiff_t(below(object.size())));
            Json value = it.value();
            object.erase(it);
            object[pickFrom(sceneKeys())] = std::move(value);
            return;
        }
        // A key added (or replaced), with a value from elsewhere in the document or a limit.
        Json value = oneIn(2) ? copyOfSomeValue() : numberJson(pickFrom(limitNumbers()));
        object[pickFrom(sceneKeys())] = std::move(value);
    }

    // --- Mostly valid: changes a loading scene survives, mostly -----------------------------

    bool mutatePlausibly(const Node& node)
    {
        Json& value = *node.value;
        if (value.is_number())
            return moveNumber(node);
        if (value.is_string())
            return changeWord(node);
        if (value.is_boolean()) {
            value = !value.get<bool>();
            return true;
        }
        if (value.is_array())
            return changeElements(node);
        if (value.is_object())
            return dropOrAddField(node);
        return false;
    }

    /// A value its field takes: within the parameter's range, a count a level runs, a
    /// coordinate moved a few metres.
    bool moveNumber(const Node& node)
    {
        const double current = node.value->get<double>();
        const std::string& key = node.key;
        double value = current;
        if (const ParamSpec* spec = node.parentKey == "params" ? specOfKey(key) : nullptr) {
            const double steps = std::floor((spec->maxValue - spec->minValue) / spec->step);
            const double choices[] = {spec->minValue, spec->maxValue, spec->defaultValue,
                                      spec->minValue +
                                          spec->step * double(below(std::size_t(steps) + 1))};
            value = choices[below(4)];
        } else if (key == "count") {
            value = oneIn(8) ? 0.0 : double(below(80));
        } else if (key == "dt") {
            const double steps[] = {1.0 / 60.0, 1.0 / 30.0, kMinStep, kMaxStep, 0.05};
            value = steps[below(5)];
        } else if (key == "seed") {
            value = double(m_random() >> 40);
        } else if (key == "version") {
            value = double(1 + below(3));
        } else if (key == "heading") {
            value = std::round(uniform(-720.0, 720.0));
        } else if (key == "priority") {
            value = double(below(kMaxCollisionPriority + 1));
        } else if (key == "layers" || key == "mask") {
            value = double(1 + below(32));
        } else if (key == "radius") {
            value = std::max(0.05, current * uniform(0.25, 2.0));
        } else if (isCoordinateKey(key)) {
            value = oneIn(2) ? current + std::round(uniform(-3.0, 3.0) * 10.0) / 10.0
                             : std::round(current * uniform(0.5, 1.5));
        } else {
            value = current * uniform(0.5, 1.5);
        }
        *node.value = numberJson(value);
        return value != current;
    }

    bool changeWord(const Node& node)
    {
        Json& value = *node.value;
        const std::string& key = node.key;
        if (key == "kind" && node.parentKey == "groups" && node.parent) {
            // Another family; its parameters go (the defaults of the new one load).
            value = std::string(behaviourKey(kAllBehaviourKinds[below(kAllBehaviourKinds.size())]));
            node.parent->erase("params");
            return true;
        }
        if (key == "kind" && node.parentKey == "pickups") {
            value = value.get<std::string>() == "fish" ? "coin" : "fish";
            return true;
        }
        if (key == "chase" || key == "group") {
            value = m_groupNames.empty() || oneIn(4) ? std::string() : pickFrom(m_groupNames);
            return true;
        }
        if (key == "color" || key == "accent") {
            const char* digits = "0123456789abcdef";
            std::string colour = "#";
            for (int i = 0; i < (oneIn(3) ? 8 : 6); ++i)
                colour += digits[below(16)];
            value = colour;
            return true;
        }
        return false;
    }

    bool changeElements(const Node& node)
    {
        Json& array = *node.value;
        const std::string& key = node.key;
        const std::size_t size = array.size();
        if (size == 0)
            return false;
        if (key == "groups" || key == "walls" || key == "obstacles" || key == "pickups" ||
            key == "agents") {
            const std::size_t at = below(size);
            if (oneIn(3) || size > 24) {
                array.erase(array.begin() + std::ptrdiff_t(at));
                return true;
            }
            Json copy = array[at];
            if (copy.is_object() && copy.contains("name") && copy["name"].is_string())
                copy["name"] = copy["name"].get<std::string>() + std::to_string(below(100));
            if (copy.is_object() && copy.contains("position"))
                copy["position"] = pointInside();
            array.push_back(std::move(copy));
            return true;
        }
        if (key == "points" && size >= 2 && array[0].is_array()) {
            // A point between two neighbours, a little off the line, or one point less.
            const std::size_t at = below(size - 1);
            if (oneIn(3) && size > 3) {
                array.erase(array.begin() + std::ptrdiff_t(at));
                return true;
            }
            const Json& a = array[at];
            const Json& b = array[at + 1];
            // Only [x, y] pairs: a mutated point may be an object or a number by now.
            if (!a.is_array() || !b.is_array() || a.size() != 2 || b.size() != 2 ||
                !a[0].is_number() || !b[0].is_number() || !a[1].is_number() || !b[1].is_number())
                return false;
            Json middle =
                Json::array({(a[0].get<double>() + b[0].get<double>()) / 2.0 + uniform(-0.5, 0.5),
                             (a[1].get<double>() + b[1].get<double>()) / 2.0 + uniform(-0.5, 0.5)});
            array.insert(array.begin() + std::ptrdiff_t(at + 1), std::move(middle));
            return true;
        }
        if ((key == "layers" || key == "mask") && size < 32) {
            array.push_back(1 + below(32));
            return true;
        }
        return false;
    }

    /// An optional field dropped (the default takes its place) or one a scene may have added.
    bool dropOrAddField(const Node& node)
    {
        Json& object = *node.value;
        if (node.key == "groups") {
            const char* optional[] = {"params", "spawn",     "agents", "target",
                                      "chase",  "collision", "color",  "accent"};
            const char* field = optional[below(8)];
            if (object.contains(field)) {
                object.erase(field);
            } else if (std::string(field) == "target") {
                object["target"] = pointInside();
            } else if (std::string(field) == "agents") {
                object["agents"] = Json::array({{{"position", pointInside()}, {"heading", 90}}});
            } else if (std::string(field) == "spawn") {
                Json min = pointInside();
                Json max = Json::array({min[0].get<double>() + 1.0 + double(below(6)),
                                        min[1].get<double>() + 1.0 + double(below(6))});
                object["spawn"] = {{"min", min}, {"max", max}, {"count", 1 + below(30)}};
            } else {
                return false;
            }
            return true;
        }
        if (node.key == "params" && !object.empty()) { // one parameter back to its default
            auto it = object.begin();
            std::advance(it, std::ptrdiff_t(below(object.size())));
            object.erase(it);
            return true;
        }
        if (node.key.empty()) { // the top level
            const char* optional[] = {"walls", "obstacles", "pickups", "player", "simulation"};
            return object.erase(optional[below(5)]) > 0;
        }
        return false;
    }

    std::mt19937_64& m_random;
    MutationStyle m_style;
    std::vector<Node> m_nodes;
    std::vector<std::string> m_groupNames;
    double m_minX = -40.0, m_minY = -25.0, m_maxX = 40.0, m_maxY = 25.0;
};

} // namespace

bool mutateJsonText(std::string& text, std::mt19937_64& random, MutationStyle style)
{
    std::optional<Json> document = parseJson(text);
    if (!document)
        return false;
    SceneMutation(*document, random, style).apply();
    text = writeJson(*document, random);
    return true;
}

bool crossOverJsonTexts(std::string& into, const std::string& from, std::mt19937_64& random)
{
    std::optional<Json> target = parseJson(into);
    std::optional<Json> source = parseJson(from);
    if (!target || !source)
        return false;
    std::vector<Node> targetNodes, sourceNodes;
    collectNodes(*target, nullptr, std::string(), std::string(), targetNodes);
    collectNodes(*source, nullptr, std::string(), std::string(), sourceNodes);
    const Node& place = targetNodes[random() % targetNodes.size()];
    // Mostly a value of the same key: a group for a group, "params" for "params", so that
    // the result still reads as a scene.
    std::vector<const Node*> sameKey;
    for (const Node& node : sourceNodes)
        if (node.key == place.key && node.parentKey == place.parentKey)
            sameKey.push_back(&node);
    const Node& donor = !sameKey.empty() && random() % 4 != 0
                            ? *sameKey[random() % sameKey.size()]
                            : sourceNodes[random() % sourceNodes.size()];
    *place.value = *donor.value;
    into = writeJson(*target, random);
    return true;
}

} // namespace shoal::fuzz
