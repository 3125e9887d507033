"""Loads the report in headless Chromium at 1440x900 and fails when the page logs a console
error, asks for anything over the network, or has a chart that is missing or empty; and
when its first screen (the 900 px a reader sees before scrolling) does not show the verdict
in one line, the headline figures and the claims' strip, holds no chart, or has a paragraph
longer than two lines. Writes a full-page screenshot next to the page (PAGE.png) and one of
the first screen (PAGE-first-screen.png) so a person can look.

usage: check_page.py PAGE.html
"""

import pathlib
import sys

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# A drawn chart has axes, a plotted line and labels: far more than this many shapes.
MIN_SHAPES_PER_CHART = 10
# The first screen: a laptop's browser window.
VIEWPORT = {"width": 1440, "height": 900}
MAX_LINES_ON_FIRST_SCREEN = 2

# What the first screen shows, in page coordinates (the page is not scrolled): each part's
# bounding box, the lines of every paragraph that starts on it, and the strip's links.
FIRST_SCREEN_FACTS = """() => {
    const box = (element) => {
        if (!element) return null;
        const r = element.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, height: r.height};
    };
    const lines = (element) => {
        const style = getComputedStyle(element);
        const lineHeight = parseFloat(style.lineHeight) || 1.2 * parseFloat(style.fontSize);
        const inner = element.getBoundingClientRect().height - parseFloat(style.paddingTop)
            - parseFloat(style.paddingBottom) - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
        return Math.round(inner / lineHeight);
    };
    const headline = document.querySelector('#headline');
    const verdicts = [...document.querySelectorAll('#headline .verdict-line')];
    const tiles = [...document.querySelectorAll('#headline .strip a.tile')];
    const rows = document.querySelectorAll('#claims table tbody tr');
    return {
        headline: !!headline,
        verdicts: verdicts.map((p) => ({box: box(p), lines: lines(p)})),
        figures: [...document.querySelectorAll('#headline .headline-figures figure.chart svg')].map(box),
        charts_on_screen: [...document.querySelectorAll('figure.chart svg')].map(box).filter((b) => b.top < %d).length,
        strip: box(document.querySelector('#headline .strip')),
        tiles: tiles.length,
        claim_rows: rows.length,
        dead_tiles: tiles.filter((a) => !document.getElementById(a.getAttribute('href').slice(1))).map((a) => a.title),
        long_paragraphs: [...document.querySelectorAll('p, figcaption, li')]
            .filter((p) => !p.closest('details:not([open])'))
            .filter((p) => p.getBoundingClientRect().top < %d && p.getBoundingClientRect().height > 0)
            .map((p) => ({text: p.textContent.trim().slice(0, 60), lines: lines(p)}))
            .filter((p) => p.lines > %d),
    };
}""" % (VIEWPORT["height"], VIEWPORT["height"], MAX_LINES_ON_FIRST_SCREEN)


def first_screen_problems(facts: dict) -> list:
    """What the first screen lacks: the verdict in one line, the headline figures, the strip
    with a linked tile per claim, a chart at all; and its paragraphs longer than two lines."""
    if not facts["headline"]:
        return []
    fold = VIEWPORT["height"]
    problems = []
    if facts["charts_on_screen"] == 0:
        problems.append("the first screen holds no chart")
    if not facts["verdicts"]:
        problems.append("the headline has no verdict line")
    for verdict in facts["verdicts"]:
        if verdict["box"]["bottom"] > fold or verdict["lines"] > 1:
            problems.append(f"the verdict is not one line on the first screen: {verdict}")
    if not facts["figures"]:
        problems.append("the headline has no figure")
    for index, figure in enumerate(facts["figures"]):
        if figure["bottom"] > fold:
            problems.append(f"headline figure {index + 1} ends at {figure['bottom']:.0f} px, below the first screen")
    strip = facts["strip"]
    if strip is None:
        problems.append("the headline has no claims strip")
    elif strip["bottom"] > fold:
        problems.append(f"the claims strip ends at {strip['bottom']:.0f} px, below the first screen")
    if strip is not None and facts["tiles"] != facts["claim_rows"]:
        problems.append(f"the strip has {facts['tiles']} tiles for {facts['claim_rows']} claims")
    problems += [f"a tile links to no row: {tile}" for tile in facts["dead_tiles"]]
    problems += [f"a paragraph on the first screen runs to {p['lines']} lines: {p['text']}..." for p in facts["long_paragraphs"]]
    return problems

CHART_FACTS = """() => [...document.querySelectorAll('figure.chart')].map((figure, index) => {
    const svg = figure.querySelector('svg');
    if (!svg) return {index, title: figure.dataset.title, svg: false};
    const box = svg.getBoundingClientRect();
    return {
        index, title: figure.dataset.title, svg: true,
        width: box.width, height: box.height,
        shapes: svg.querySelectorAll('path, polyline, line, circle, rect, polygon').length,
        texts: svg.querySelectorAll('text').length,
    };
})"""


def main(page_path: pathlib.Path) -> int:
    problems, requests = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        page = browser.new_page(viewport=VIEWPORT)
        page.on("console", lambda message: message.type == "error" and problems.append(f"console error: {message.text}"))
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        page.on("request", lambda request: request.url.startswith(("file:", "data:", "about:")) or requests.append(request.url))
        page.goto(page_path.resolve().as_uri())
        page.wait_for_load_state("load")
        expected = int(page.eval_on_selector("main", "main => main.dataset.charts"))
        charts = page.evaluate(CHART_FACTS)
        first_screen = page.evaluate(FIRST_SCREEN_FACTS)
        first_shot = page_path.with_name(page_path.stem + "-first-screen.png")
        page.screenshot(path=str(first_shot), full_page=False)
        screenshot = page_path.with_suffix(".png")
        page.screenshot(path=str(screenshot), full_page=True)
        browser.close()
    problems += [f"network request from an offline page: {url}" for url in requests]
    if len(charts) != expected:
        problems.append(f"the page says it holds {expected} charts but {len(charts)} are present")
    for chart in charts:
        name = f"chart {chart['index'] + 1} ({chart['title']})"
        if not chart["svg"]:
            problems.append(f"{name} has no <svg>")
        elif chart["width"] < 100 or chart["height"] < 100:
            problems.append(f"{name} is drawn {chart['width']:.0f}x{chart['height']:.0f} px: too small to read")
        elif chart["shapes"] < MIN_SHAPES_PER_CHART or chart["texts"] == 0:
            problems.append(f"{name} is empty: {chart['shapes']} shapes, {chart['texts']} labels")
    problems += first_screen_problems(first_screen)
    print(
        f"{page_path}: {len(charts)} charts checked, {len(requests)} network requests, screenshots {screenshot} "
        f"and {first_shot} ({len(first_screen['figures'])} headline figures, {first_screen['tiles']} tiles)"
    )
    for problem in problems:
        print(f"FAIL: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(pathlib.Path(sys.argv[1])))
