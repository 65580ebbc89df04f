#!/usr/bin/env python3
"""The dashboard's size and first load on loopback, in headless Chromium (Selenium).

Starts `offline-search serve` on a data folder holding the bundled `instant_search`, then opens
/dashboard N times, each in a fresh browser (an empty cache), and reads the Navigation and
Resource Timing entries: the bytes the page and its assets take on the wire, the time to the
HTML's end, DOMContentLoaded and load, and until the indices table lists its first row.

    .venv/bin/python Benchmarks/dashboard/measure.py [--runs 10] [--bin .build/release/offline-search]
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "Contract"))
from local_server import serve  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--bin", default=str(REPO / ".build" / "release" / "offline-search"))
    args = parser.parse_args()
    import local_server
    local_server.BINARY = Path(args.bin)
    with tempfile.TemporaryDirectory() as data:
        subprocess.run([args.bin, "import", "--data", data, "instant_search", str(REPO / "Datasets/instant_search.json"),
                        "--settings", str(REPO / "Datasets/instant_search.settings.json")], check=True, capture_output=True)
        with serve("--data", data) as served:
            url = f"http://127.0.0.1:{served.port}/dashboard"
            runs = []
            for _ in range(args.runs):
                options = webdriver.ChromeOptions()
                for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800"):
                    options.add_argument(flag)
                options.binary_location = "/usr/bin/chromium"
                driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
                try:
                    started = time.perf_counter()
                    driver.get(url)
                    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "table tbody tr"))
                    listed = (time.perf_counter() - started) * 1000
                    timing = driver.execute_script("""
                        const n = performance.getEntriesByType('navigation')[0];
                        const r = performance.getEntriesByType('resource');
                        return {responseEnd: n.responseEnd, domContentLoaded: n.domContentLoadedEventEnd, load: n.loadEventEnd,
                                html: n.encodedBodySize,
                                assets: r.filter(e => e.name.includes('/dashboard/')).reduce((s, e) => s + e.encodedBodySize, 0),
                                assetCount: r.filter(e => e.name.includes('/dashboard/')).length};""")
                    timing["listed"] = listed
                    runs.append(timing)
                finally:
                    driver.quit()
    first = runs[0]
    summary = {
        "runs": len(runs), "htmlBytes": first["html"], "assetBytes": first["assets"], "assetFiles": first["assetCount"],
        "totalBytes": first["html"] + first["assets"],
        **{f"{key}MedianMS": round(statistics.median(r[key] for r in runs), 1)
           for key in ("responseEnd", "domContentLoaded", "load", "listed")},
        **{f"{key}MaxMS": round(max(r[key] for r in runs), 1) for key in ("load", "listed")},
    }
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
