"""Contract scenario: search analytics and Insights events, driven by the official Algolia Python
client (algoliasearch from PyPI: SearchClientSync, InsightsClientSync, AnalyticsClientSync), unchanged
but for their host, against `offline-search serve` started from the built binary on a free port.

Each test starts its own server on a fresh data folder with a small shop. A search is counted as the
query a user settled on: one user's queries on one index that extend or shorten each other within
30 s form a burst counted once, as its last query, when an unrelated query comes, when a click or
conversion names its queryID, after the pause, or when the server stops. Every answer is read through
the clients' models, so an answer they cannot decode fails here. Run by Tests/Contract/run.sh.
"""
import json
import urllib.error
import urllib.request
from contextlib import contextmanager
from datetime import datetime, timezone

import pytest
from algoliasearch.analytics.client import AnalyticsClientSync
from algoliasearch.analytics.config import AnalyticsConfig
from algoliasearch.analytics.models.top_searches_response_with_analytics import TopSearchesResponseWithAnalytics
from algoliasearch.http.exceptions import RequestException
from algoliasearch.http.hosts import Host, HostsCollection
from algoliasearch.insights.client import InsightsClientSync
from algoliasearch.insights.config import InsightsConfig
from algoliasearch.insights.models.clicked_object_ids_after_search import ClickedObjectIDsAfterSearch
from algoliasearch.insights.models.converted_object_ids_after_search import ConvertedObjectIDsAfterSearch
from algoliasearch.insights.models.events_items import EventsItems
from algoliasearch.insights.models.insights_events import InsightsEvents
from local_server import ADMIN_KEY, APP_ID, SEARCH_KEY, client_for, keyed_server, serve

SHOP = "shop"
ANY_KEY = "any-key"  # a server without keys accepts any credentials
PRODUCTS = [
    {"objectID": "ph1", "name": "Apple iPhone 15", "brand": "Apple", "categories": ["Phones"]},
    {"objectID": "ph2", "name": "Samsung Galaxy S24", "brand": "Samsung", "categories": ["Phones"]},
    {"objectID": "tv1", "name": "Samsung QLED TV", "brand": "Samsung", "categories": ["TV"]},
    {"objectID": "tv2", "name": "LG OLED TV", "brand": "LG", "categories": ["TV"]},
    {"objectID": "lp1", "name": "Apple MacBook Air", "brand": "Apple", "categories": ["Laptops"]},
    {"objectID": "hp1", "name": "Sony headphones", "brand": "Sony", "categories": ["Audio"]},
]
SETTINGS = {"searchableAttributes": ["name", "brand", "categories"], "attributesForFaceting": ["brand", "categories"]}


@contextmanager
def running(data):
    """A server without keys on the data folder `data`; yields its port."""
    with serve("--data", str(data)) as served:
        yield served.port


def create_shop(port, key=ANY_KEY):
    search = client_for(port, key)
    search.save_objects(SHOP, PRODUCTS, wait_for_tasks=True)
    search.wait_for_task(SHOP, search.set_settings(SHOP, SETTINGS).task_id)
    return search


def local(config, port):
    config.hosts = HostsCollection([Host("127.0.0.1", scheme="http", port=port)])
    return config


def insights_for(port, key=ANY_KEY):
    return InsightsClientSync.create_with_config(config=local(InsightsConfig(APP_ID, key), port))


def analytics_for(port, key=ANY_KEY):
    return AnalyticsClientSync.create_with_config(config=local(AnalyticsConfig(APP_ID, key), port))


def search(client, query, user, **parameters):
    return client.search_single_index(SHOP, {"query": query, "userToken": user, **parameters})


def click(response, user, object_id, position):
    return ClickedObjectIDsAfterSearch(event_name="Hit Clicked", event_type="click", index=SHOP, user_token=user,
                                       query_id=response.query_id, object_ids=[object_id], positions=[position])


def conversion(response, user, object_id):
    return ConvertedObjectIDsAfterSearch(event_name="Hit Bought", event_type="conversion", index=SHOP, user_token=user,
                                         query_id=response.query_id, object_ids=[object_id])


def send(insights, *events):
    answer = insights.push_events(InsightsEvents(events=[EventsItems(event) for event in events]))
    assert (answer.status, answer.message) == (200, "OK")


def top_searches(analytics):
    """`get_top_searches` with click analytics, by query. The client's oneOf takes the first model
    that fits, the plain TopSearchesResponse (extra fields allowed), so the answer is read again as
    TopSearchesResponseWithAnalytics: every click figure must be there, with its type."""
    response = analytics.get_top_searches(index=SHOP, click_analytics=True)
    return {item.search: item for item in TopSearchesResponseWithAnalytics.from_json(response.to_json()).searches}


def test_a_burst_counts_once_and_events_count_on_their_search(tmp_path):
    with running(tmp_path) as port:
        shop, analytics = create_shop(port), analytics_for(port)
        for query in ["i", "ip", "iph", "iphone", "samsung"]:  # "samsung", unrelated, ends the "iphone" burst
            search(shop, query, "user-1")
        tv = search(shop, "tv", "user-2", clickAnalytics=True)
        assert tv.query_id and [hit.object_id for hit in tv.hits][:2] == ["tv1", "tv2"]
        send(insights_for(port), click(tv, "user-2", "tv2", 2), conversion(tv, "user-2", "tv2"))

        searches = top_searches(analytics)
        # "samsung" is still its user's burst (less than 30 s old): not counted yet.
        assert sorted(searches) == ["iphone", "tv"]
        iphone, tv = searches["iphone"], searches["tv"]
        assert (iphone.count, iphone.tracked_search_count, iphone.click_count) == (1, 0, 0)
        assert iphone.click_through_rate is None and iphone.conversion_rate is None
        assert (tv.count, tv.click_count, tv.tracked_search_count, tv.conversion_count) == (1, 1, 1, 1)
        assert (tv.click_through_rate, tv.average_click_position, tv.conversion_rate) == (1.0, 2, 1.0)
        assert [(p.position, p.click_count) for p in tv.click_positions if p.click_count] == [([2, 2], 1)]
        assert tv.nb_hits == 2

    # The server stopped: the burst it left going counted, as the next server reads.
    with running(tmp_path) as port:
        searches = top_searches(analytics_for(port))
        assert {query: item.count for query, item in searches.items()} == {"iphone": 1, "tv": 1, "samsung": 1}


def test_search_count_no_results_top_hits_and_filters(tmp_path):
    with running(tmp_path) as port:
        shop, analytics = create_shop(port), analytics_for(port)
        assert search(shop, "zzzzqqq", "user-3").nb_hits == 0
        # Unrelated, so it ends the "zzzzqqq" burst; a conversion on its queryID counts it at once.
        apple = search(shop, "apple", "user-3", clickAnalytics=True, facetFilters=["brand:Apple"])
        assert sorted(hit.object_id for hit in apple.hits) == ["lp1", "ph1"]
        send(insights_for(port), conversion(apple, "user-3", "ph1"))

        count = analytics.get_searches_count(index=SHOP)
        today = datetime.now(timezone.utc).date().isoformat()
        assert count.count == 2 == sum(day.count for day in count.dates)
        assert len(count.dates) == 8 and (count.dates[-1].var_date, count.dates[-1].count) == (today, 2)

        no_results = analytics.get_searches_no_results(index=SHOP)
        assert [(item.search, item.count, item.with_filter_count) for item in no_results.searches] == [("zzzzqqq", 1, 0)]

        hits = analytics.get_top_hits(index=SHOP).actual_instance.hits
        assert sorted((hit.hit, hit.count) for hit in hits) == [("lp1", 1), ("ph1", 1)]

        attributes = analytics.get_top_filter_attributes(index=SHOP).attributes
        assert [(item.attribute, item.count) for item in attributes] == [("brand", 1)]
        values = analytics.get_top_filter_for_attribute("brand", index=SHOP).values
        assert [(item.attribute, item.operator, item.value, item.count) for item in values] == [("brand", ":", "Apple", 1)]


def test_an_invalid_event_is_refused_naming_its_field(tmp_path):
    event = {"eventType": "clack", "eventName": "Hit Clicked", "index": SHOP, "userToken": "user-4", "objectIDs": ["ph1"]}
    with running(tmp_path) as port:
        with pytest.raises(RequestException) as refused:
            insights_for(port).custom_post("1/events", body={"events": [event]})
        assert refused.value.status_code == 400 and "eventType" in refused.value.message

        request = urllib.request.Request(
            "http://127.0.0.1:%d/1/events" % port, data=json.dumps({"events": [event]}).encode(), method="POST",
            headers={"Content-Type": "application/json", "X-Algolia-Application-Id": APP_ID, "X-Algolia-API-Key": ANY_KEY})
        with pytest.raises(urllib.error.HTTPError) as raw:
            urllib.request.urlopen(request, timeout=30)
        body = json.loads(raw.value.read())
        assert raw.value.code == 400 and body["status"] == 400 and "eventType" in body["message"]


def test_the_search_key_sends_events_but_only_the_admin_key_reads_analytics():
    with keyed_server(r"GET /2/searches 403") as port:
        create_shop(port, ADMIN_KEY)
        tv = search(client_for(port, SEARCH_KEY), "tv", "user-5", clickAnalytics=True)
        send(insights_for(port, SEARCH_KEY), click(tv, "user-5", "tv1", 1))

        with pytest.raises(RequestException) as refused:
            analytics_for(port, SEARCH_KEY).get_top_searches(index=SHOP)
        assert refused.value.status_code == 403
        searches = top_searches(analytics_for(port, ADMIN_KEY))
        assert (searches["tv"].count, searches["tv"].click_count, searches["tv"].average_click_position) == (1, 1, 1)
