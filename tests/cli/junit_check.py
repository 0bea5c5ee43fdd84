#!/usr/bin/env python3
"""Checks that a file is well-formed JUnit XML as CI servers read it (the shape Jenkins,
GitLab and GitHub's test reporters take): <testsuites> of <testsuite name tests failures
errors> of <testcase classname name>, each at most one <failure message> or <error message>,
and every count equal to what it counts. Prints the totals as "tests=N failures=F errors=E".
Usage: junit_check.py FILE"""
import sys
import xml.etree.ElementTree as ET


def fail(message):
    print(f"junit_check: {message}", file=sys.stderr)
    sys.exit(1)


def count(element, name):
    text = element.get(name)
    if text is None or not text.isdigit():
        fail(f"<{element.tag}> needs a whole number in '{name}', has {text!r}")
    return int(text)


def main():
    try:
        root = ET.parse(sys.argv[1]).getroot()
    except ET.ParseError as error:
        fail(f"not well-formed XML: {error}")
    if root.tag != "testsuites":
        fail(f"the root is <{root.tag}>, not <testsuites>")
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for suite in root:
        if suite.tag != "testsuite":
            fail(f"<testsuites> holds <{suite.tag}>")
        if not suite.get("name"):
            fail("a <testsuite> has no name")
        cases = [c for c in suite if c.tag == "testcase"]
        found = {"tests": len(cases), "failures": 0, "errors": 0}
        for case in cases:
            if not case.get("name") or not case.get("classname"):
                fail("a <testcase> lacks name or classname")
            outcomes = [c for c in case if c.tag in ("failure", "error", "skipped")]
            if len(outcomes) > 1:
                fail(f"testcase {case.get('name')!r} has {len(outcomes)} outcomes")
            for outcome in outcomes:
                if outcome.tag != "skipped" and not outcome.get("message"):
                    fail(f"the {outcome.tag} of {case.get('name')!r} has no message")
                if outcome.tag == "failure":
                    found["failures"] += 1
                elif outcome.tag == "error":
                    found["errors"] += 1
        for key, value in found.items():
            if count(suite, key) != value:
                fail(f"testsuite {suite.get('name')!r} says {key}={suite.get(key)}, has {value}")
            totals[key] += value
    for key, value in totals.items():
        if count(root, key) != value:
            fail(f"<testsuites> says {key}={root.get(key)}, has {value}")
    print(f"tests={totals['tests']} failures={totals['failures']} errors={totals['errors']}")


main()
