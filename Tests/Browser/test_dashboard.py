"""The dashboard driven as a person would, in headless Chromium, against `offline-search serve` on a
fresh data folder (instant_search and instant_search_copy, 3,000 records each).

Run by Tests/Browser/run.sh; DASHBOARD_VIA_PROXY=1 serves the page from dev_proxy.py. Every test
ends with the browser's console checked: no error and no warning (conftest.py).
"""
import json
import re
import tempfile
from pathlib import Path

from conftest import ADMIN_KEY, SEARCH_KEY
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

TIMEOUT = 20


def wait(driver, condition, timeout=TIMEOUT):
    return WebDriverWait(driver, timeout, ignored_exceptions=[StaleElementReferenceException]).until(condition)


def visible(driver, css):
    return wait(driver, EC.visibility_of_element_located((By.CSS_SELECTOR, css)))


def clickable(driver, css):
    return wait(driver, EC.element_to_be_clickable((By.CSS_SELECTOR, css)))


def text_in(driver, css, text):
    return wait(driver, EC.text_to_be_present_in_element((By.CSS_SELECTOR, css), text))


def text_is(driver, css, text):
    return wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, css).text == text)


def click(driver, css):
    """Clicks the element once it can be clicked, again if the page redrew it meanwhile."""
    def attempt(d):
        try:
            clickable(d, css).click()
            return True
        except StaleElementReferenceException:
            return False
    wait(driver, attempt)


def replace_text(element, text):
    """Selects what a field holds and types over it (input events, as a person's typing)."""
    element.send_keys(Keys.CONTROL, "a")
    element.send_keys(Keys.DELETE)
    if text:
        element.send_keys(text)


def search(driver, query, box="#search-box", stats="#search-stats"):
    """Types `query` in the search box, and waits until the answer to it is shown."""
    replace_text(visible(driver, box), query)
    return settle(driver, stats)


def settle(driver, stats="#search-stats"):
    """Waits until the latest search's answer is shown (the page marks it data-state=done)."""
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, stats).get_attribute("data-state") == "done")
    return driver.find_element(By.CSS_SELECTOR, stats)


def nb_hits(driver):
    return int(driver.find_element(By.ID, "nb-hits").get_attribute("data-value"))


def hit_ids(driver):
    return [hit.get_attribute("data-object-id") for hit in driver.find_elements(By.CSS_SELECTOR, "#hits [data-test=hit]")]


def confirm(driver):
    """Accepts the page's confirmation dialog."""
    clickable(driver, "#confirm-dialog[open] #confirm-ok").click()
    wait(driver, lambda d: not d.find_element(By.ID, "confirm-dialog").get_attribute("open"))


def test_indices_search_facets_and_ranking(site, browser, screenshot):
    browser.get(site.url + "/dashboard")
    row = visible(browser, "#indices-table tr[data-index=instant_search]")
    assert row.find_element(By.CSS_SELECTOR, "[data-test=entries]").text == "3,000"
    assert browser.find_element(By.CSS_SELECTOR, "body").get_attribute("data-mode") == "admin"
    screenshot(browser, "indices.png")

    row.find_element(By.LINK_TEXT, "instant_search").click()
    wait(browser, EC.url_to_be(site.url + "/dashboard/indexes/instant_search"))
    settle(browser)
    assert nb_hits(browser) == 3000

    search(browser, "iphone")
    iphone_hits = nb_hits(browser)
    assert 0 < iphone_hits < 3000
    assert len(hit_ids(browser)) == 10
    assert browser.find_elements(By.CSS_SELECTOR, "#hits mark"), "the matched words are highlighted"
    assert '"query": "iphone"' in browser.find_element(By.ID, "raw-request-json").get_attribute("textContent")

    # One facet value checked: fewer hits, every one of them Apple's.
    apple = clickable(browser, "input[data-facet=brand][data-value=Apple]")
    apple.click()
    settle(browser)
    assert 0 < nb_hits(browser) < iphone_hits
    brands = [cell.text for cell in browser.find_elements(By.CSS_SELECTOR, "#hits [data-attr=brand]")]
    assert brands and set(brands) == {"Apple"}
    assert '"brand:Apple"' in browser.find_element(By.ID, "raw-request-json").get_attribute("textContent")
    assert browser.find_element(By.CSS_SELECTOR, "input[data-facet=brand][data-value=Apple]").is_selected()
    apple_hits = nb_hits(browser)

    # A second brand is ORed with the first (its count is still shown): more hits, of either brand.
    click(browser, "input[data-facet=brand][data-value=Samsung]")
    settle(browser)
    assert nb_hits(browser) > apple_hits
    assert set(cell.text for cell in browser.find_elements(By.CSS_SELECTOR, "#hits [data-attr=brand]")) <= {"Apple", "Samsung"}
    request = browser.find_element(By.ID, "raw-request-json").get_attribute("textContent")
    assert json.loads(request.split("\n", 1)[1])["facetFilters"] == [["brand:Apple", "brand:Samsung"]]
    click(browser, "input[data-facet=brand][data-value=Samsung]")
    settle(browser)
    assert nb_hits(browser) == apple_hits

    # The second hit's ranking info: a table of the criteria, in Algolia's order.
    toggle = browser.find_elements(By.CSS_SELECTOR, "#hits [data-test=ranking-toggle]")[1]
    toggle.click()
    table = visible(browser, "#hits [data-test=ranking-table]")
    criteria = [row.get_attribute("data-criterion") for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")]
    assert criteria[:7] == ["typo", "words", "filters", "proximity", "attribute", "exact", "custom"]
    assert toggle.get_attribute("aria-expanded") == "true"
    assert "desc(popularity)" in table.text  # the custom criterion read with the index's customRanking
    browser.set_window_size(1280, 1100)  # the refined facet and the ranking table in one picture
    screenshot(browser, "search.png")
    browser.set_window_size(1280, 800)

    # Paging.
    first_page = hit_ids(browser)
    clickable(browser, "#next-page").click()
    settle(browser)
    assert browser.find_element(By.ID, "page-info").text.startswith("Page 2 of ")
    assert hit_ids(browser) and not set(hit_ids(browser)) & set(first_page)


def test_settings_change_is_honoured_by_the_next_search(site, browser, screenshot):
    # The copy's customRanking changed in the form: the next search ranks the least popular first.
    browser.get(site.url + "/dashboard/indexes/instant_search_copy")
    settle(browser)
    first_before = hit_ids(browser)[0]

    clickable(browser, "#tab-settings").click()
    custom = visible(browser, "#setting-customRanking")
    assert custom.get_attribute("value") == "desc(popularity)"
    assert "Default" in browser.find_element(By.ID, "setting-hitsPerPage-hint").text
    screenshot(browser, "settings.png")
    replace_text(custom, "asc(popularity)")
    clickable(browser, "#settings-save").click()
    text_in(browser, "#settings-status", "Saved: customRanking")
    assert site.request("GET", "/1/indexes/instant_search_copy/settings")[1]["customRanking"] == ["asc(popularity)"]

    clickable(browser, "#tab-search").click()
    settle(browser)
    assert hit_ids(browser)[0] != first_before
    browser.find_elements(By.CSS_SELECTOR, "#hits [data-test=ranking-toggle]")[0].click()
    assert "asc(popularity)" in visible(browser, "#hits [data-test=ranking-table]").text


def test_a_refused_setting_shows_the_servers_message_beside_its_section(site, browser, expected_network_errors):
    expected_network_errors.append(r"/settings - Failed to load resource: .* 400")
    browser.get(site.url + "/dashboard/indexes/instant_search/settings")
    replace_text(visible(browser, "#setting-hitsPerPage"), "0")
    clickable(browser, "#settings-save").click()
    error = visible(browser, "#section-pagination .field-error[role=alert]")
    assert "hitsPerPage" in error.text
    assert site.request("GET", "/1/indexes/instant_search/settings")[1]["hitsPerPage"] == 20


def test_add_find_edit_and_delete_a_record(site, browser):
    browser.get(site.url + "/dashboard/indexes/instant_search/records")
    visible(browser, "#records-table tbody tr[data-object-id]")
    assert browser.find_element(By.ID, "records-count").text == "3,000 records"
    record = {"objectID": "dashboard-test-1", "name": "Zyxwvut dashboard gadget", "brand": "Dashbrand", "popularity": 1}
    visible(browser, "#record-new-json").send_keys(json.dumps(record))
    clickable(browser, "#record-add").click()
    text_in(browser, "#records-status", "dashboard-test-1")
    wait(browser, lambda d: "Zyxwvut" in d.find_element(By.ID, "record-json").get_attribute("value"))

    clickable(browser, "#tab-search").click()
    search(browser, "zyxwvut")
    assert nb_hits(browser) == 1 and hit_ids(browser) == ["dashboard-test-1"]

    # Its Edit link opens it in Records; a name changed and saved is found by the new name.
    clickable(browser, "#hits .hit-edit").click()
    editor = visible(browser, "#record-json")
    wait(browser, lambda d: "Zyxwvut" in editor.get_attribute("value"))
    replace_text(editor, json.dumps({**record, "name": "Qwxyzzy dashboard gadget"}))
    clickable(browser, "#record-save").click()
    text_in(browser, "#record-status", "Saved")
    assert site.request("GET", "/1/indexes/instant_search/dashboard-test-1")[1]["name"] == "Qwxyzzy dashboard gadget"

    clickable(browser, "#record-delete").click()
    confirm(browser)
    text_in(browser, "#records-status", "was deleted")
    clickable(browser, "#tab-search").click()
    search(browser, "qwxyzzy")
    assert nb_hits(browser) == 0


def test_create_import_copy_clear_and_delete_an_index(site, browser):
    browser.get(site.url + "/dashboard")
    visible(browser, "#indices-table tr[data-index=instant_search]")
    visible(browser, "#create-index-name").send_keys("dashboard_tmp")
    clickable(browser, "#create-index").click()
    row = visible(browser, "#indices-table tr[data-index=dashboard_tmp]")
    assert row.find_element(By.CSS_SELECTOR, "[data-test=entries]").text == "0"

    # Import a file of 2,500 records: three batches, the progress bar full at the end.
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "records.json"
        path.write_text(json.dumps([{"objectID": "r%d" % i, "name": "record %d" % i} for i in range(2500)]))
        row.find_element(By.LINK_TEXT, "dashboard_tmp").click()
        clickable(browser, "#tab-records").click()
        visible(browser, "#records-table")
        browser.find_element(By.ID, "import-file").send_keys(str(path))
        clickable(browser, "#import-start").click()
        text_in(browser, "#import-status", "Imported 2,500 of 2,500 records")
    progress = browser.find_element(By.ID, "import-progress")
    assert progress.get_attribute("value") == progress.get_attribute("max") == "2500"
    text_in(browser, "#records-count", "2,500 records")
    clickable(browser, "#records-next").click()
    text_in(browser, "#records-page", "Page 2")

    clickable(browser, "#nav-indices").click()
    copy = clickable(browser, "tr[data-index=dashboard_tmp] [data-action=copy]")
    copy.click()
    field = visible(browser, "#confirm-input")
    assert field.get_attribute("value") == "dashboard_tmp_copy"
    confirm(browser)
    copied = visible(browser, "tr[data-index=dashboard_tmp_copy]")
    assert copied.find_element(By.CSS_SELECTOR, "[data-test=entries]").text == "2,500"

    clickable(browser, "tr[data-index=dashboard_tmp] [data-action=clear]").click()
    confirm(browser)
    text_is(browser, "tr[data-index=dashboard_tmp] [data-test=entries]", "0")
    for name in ("dashboard_tmp", "dashboard_tmp_copy"):
        click(browser, "tr[data-index=%s] [data-action=delete]" % name)
        confirm(browser)
        wait(browser, EC.invisibility_of_element_located((By.CSS_SELECTOR, "tr[data-index=%s]" % name)))
    assert {item["name"] for item in site.request("GET", "/1/indexes")[1]["items"]} == {"instant_search", "instant_search_copy"}


def test_synonyms_rules_and_analytics(site, browser):
    # A synonym from the template: listed, then deleted.
    browser.get(site.url + "/dashboard/indexes/instant_search_copy/synonyms")
    text_in(browser, "#synonyms-count", "0 synonyms")
    clickable(browser, "#synonyms-new-json ~ .actions [data-action=save]").click()
    item = visible(browser, "#synonyms-list li[data-object-id=tv-television]")
    assert "tv = television" in item.text
    item.find_element(By.TAG_NAME, "summary").click()
    clickable(browser, "#synonyms-list li[data-object-id=tv-television] [data-action=delete]").click()
    confirm(browser)
    text_in(browser, "#synonyms-count", "0 synonyms")

    # A rule written as JSON, listed, then deleted.
    clickable(browser, "#tab-rules").click()
    text_in(browser, "#rules-count", "0 rules")
    rule = {"objectID": "promote-one", "description": "Promote one hit for tv",
            "conditions": [{"pattern": "tv", "anchoring": "contains"}],
            "consequence": {"promote": [{"objectID": "8985106", "position": 0}]}}
    replace_text(visible(browser, "#rules-new-json"), json.dumps(rule))
    clickable(browser, "#rules-new-json ~ .actions [data-action=save]").click()
    assert "Promote one hit" in visible(browser, "#rules-list li[data-object-id=promote-one]").text
    assert site.request("POST", "/1/indexes/instant_search_copy/query", {"query": "tv"})[1]["hits"][0]["objectID"] == "8985106"
    browser.find_element(By.CSS_SELECTOR, "#rules-list li[data-object-id=promote-one] summary").click()
    clickable(browser, "#rules-list li[data-object-id=promote-one] [data-action=delete]").click()
    confirm(browser)
    text_in(browser, "#rules-count", "0 rules")

    # Analytics of instant_search (a log replayed into it by conftest): the three reports.
    browser.get(site.url + "/dashboard/indexes/instant_search/analytics")
    text_in(browser, "#analytics-total", "45 searches in these 8 days")
    top = [[cell.text for cell in row.find_elements(By.CSS_SELECTOR, "th, td")[:3]]
           for row in visible(browser, "#analytics-top").find_elements(By.CSS_SELECTOR, "tbody tr")]
    assert top[:2] == [["tv", "30", top[0][2]], ["iphone", "12", top[1][2]]] and int(top[0][2]) > 0
    text_in(browser, "#analytics-no-results tbody", "zzzqqq")
    bars = browser.find_elements(By.CSS_SELECTOR, "#analytics-count tbody tr .bar")
    assert len(bars) == 8 and bars[-1].size["width"] > bars[0].size["width"]
    assert not [e for e in browser.find_elements(By.CSS_SELECTOR, ".field-error") if e.is_displayed()]


def test_compare_marks_the_rows_that_moved(site, browser, screenshot):
    status, _ = site.request("PUT", "/1/indexes/instant_search_copy/settings", {"customRanking": ["desc(price)"]})
    assert status == 200
    browser.get(site.url + "/dashboard")
    click(browser, "#nav-compare")
    for side, name in (("left", "instant_search"), ("right", "instant_search_copy")):
        replace_text(visible(browser, "#compare-" + side), name)
    summary = search(browser, "iphone", box="#compare-box", stats="#compare-summary")
    assert re.fullmatch(r"\d+ of 20 differ", summary.text) and int(summary.get_attribute("data-differ")) > 0
    assert browser.find_elements(By.CSS_SELECTOR, "#compare-left-list li.moved")
    assert browser.find_elements(By.CSS_SELECTOR, "#compare-right-list li.moved")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#compare-left-list [data-test=compare-row]")) == 20
    assert "q=iphone" in browser.current_url
    screenshot(browser, "compare.png")

    # The same index on both sides: nothing differs.
    replace_text(browser.find_element(By.ID, "compare-right"), "instant_search")
    browser.find_element(By.ID, "compare-right").send_keys(Keys.TAB)
    text_in(browser, "#compare-summary", "0 of 20 differ")
    assert not browser.find_elements(By.CSS_SELECTOR, ".compare-list li.moved, .compare-list li.only-left, .compare-list li.only-right")


def test_narrow_window_has_no_horizontal_scroll(site, browser):
    browser.set_window_size(400, 800)
    for path in ("/dashboard", "/dashboard/indexes/instant_search", "/dashboard/indexes/instant_search/settings", "/dashboard/compare"):
        browser.get(site.url + path)
        visible(browser, "#view h1")
        if path.endswith("instant_search"):
            settle(browser)
        width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], (path, width)


def test_keys_search_key_is_read_only_admin_key_edits(keyed_site, browser, expected_network_errors):
    # The page reads a key's rights with GET /1/keys/KEY (200 for the key itself): the search
    # key's read-only page logs nothing; only the wrong and stale keys below get a 403 each.
    browser.get(keyed_site.url + "/dashboard/indexes/instant_search")
    key = visible(browser, "#key-form input[type=password]#api-key")
    assert browser.find_element(By.CSS_SELECTOR, "label[for=api-key]").text
    key.send_keys(SEARCH_KEY)
    clickable(browser, "#key-submit").click()
    wait(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-mode") == "read-only")
    settle(browser)  # the index of the address, searched
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-test=edit-control]")
    assert [tab.text for tab in browser.find_elements(By.CSS_SELECTOR, ".tabs a")] == ["Search"]

    # An index chosen by typing its name.
    clickable(browser, "#nav-indices").click()
    visible(browser, "#open-index-name").send_keys("instant_search")
    clickable(browser, "#open-index").click()
    search(browser, "tv")
    assert nb_hits(browser) > 0 and hit_ids(browser)
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-test=edit-control]")
    # The key is kept for the tab (sessionStorage) across a reload; compare works with it too.
    browser.get(keyed_site.url + "/dashboard/compare?left=instant_search&right=instant_search_copy&q=tv")
    text_in(browser, "#compare-summary", "of 20 differ")
    assert browser.execute_script("return Object.keys(localStorage).length") == 0

    # A write with the search key is refused by the server itself.
    status, answer = keyed_site.request("PUT", "/1/indexes/instant_search/settings", {"hitsPerPage": 5}, key=SEARCH_KEY)
    assert status == 403 and "not allowed" in answer["message"]
    # A key reads its own rights, not another's; the read-only page logged nothing.
    status, rights = keyed_site.request("GET", "/1/keys/" + SEARCH_KEY, key=SEARCH_KEY)
    assert status == 200 and rights["acl"] == ["search"] and rights["value"] == SEARCH_KEY
    assert keyed_site.request("GET", "/1/keys/" + ADMIN_KEY, key=SEARCH_KEY)[0] == 403
    assert "editSettings" in keyed_site.request("GET", "/1/keys/" + ADMIN_KEY, key=ADMIN_KEY)[1]["acl"]
    browser.console += browser.get_log("browser")
    assert not [entry for entry in browser.console if entry["level"] in ("SEVERE", "WARNING")], browser.console
    expected_network_errors.append(r"/1/keys/wrong - Failed to load resource: .* 403")
    expected_network_errors.append(r"/1/indexes - Failed to load resource: .* 403")  # the stale key, at the end

    # Signing out forgets the key; a wrong key is refused beside the form; the admin key edits.
    clickable(browser, "#sign-out").click()
    key = visible(browser, "#api-key")
    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-mode") is None
    assert browser.execute_script("return sessionStorage.length") == 0
    key.send_keys("wrong")
    clickable(browser, "#key-submit").click()
    text_in(browser, "#key-error", "Invalid")
    replace_text(key, ADMIN_KEY)
    clickable(browser, "#key-submit").click()
    wait(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-mode") == "admin")
    visible(browser, "#compare-left-list li")
    clickable(browser, "#nav-indices").click()
    visible(browser, "#indices-table tr[data-index=instant_search] [data-test=edit-control]")
    assert len(browser.find_elements(By.CSS_SELECTOR, "[data-test=edit-control]")) >= 7

    # A kept key the server no longer takes: the page asks for one again.
    browser.execute_script("sessionStorage.setItem('offline-search.dashboard.key', 'stale')")
    browser.get(keyed_site.url + "/dashboard")
    text_in(browser, "#key-error", "sign in again")
    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-mode") is None
