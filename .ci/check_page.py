"""Loads the report in headless Chromium and fails when the page logs a console error,
asks for anything over the network, or has a chart that is missing or empty. Writes a
full-page screenshot next to the page (PAGE.png) so a person can look.

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
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.on("console", lambda message: message.type == "error" and problems.append(f"console error: {message.text}"))
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        page.on("request", lambda request: request.url.startswith(("file:", "data:", "about:")) or requests.append(request.url))
        page.goto(page_path.resolve().as_uri())
        page.wait_for_load_state("load")
        expected = int(page.eval_on_selector("main", "main => main.dataset.charts"))
        charts = page.evaluate(CHART_FACTS)
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
    print(f"{page_path}: {len(charts)} charts checked, {len(requests)} network requests, screenshot {screenshot}")
    for problem in problems:
        print(f"FAIL: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(pathlib.Path(sys.argv[1])))
