"""Contract scenario: the official Algolia Python client (algoliasearch from PyPI), unchanged but
for its host, against `offline-search serve` started from the built binary on a free port.

Every call goes through the client's models, so an answer they cannot decode fails here.
Run by Tests/Contract/run.sh.
"""
import json
import time
from pathlib import Path

import pytest
from algoliasearch.http.exceptions import RequestException
from local_server import ADMIN_KEY, SEARCH_KEY, client_for, keyed_server

REPO = Path(__file__).resolve().parents[2]
# The project's real products (../shared/datasets, beside the repository: CI has it, a user's clone
# does not); where they are absent, the generated products of Datasets/ (the same fields).
SHARED = REPO.parent / "shared" / "datasets"
PRODUCTS_FILE = SHARED / "products.json" if (SHARED / "products.json").exists() else REPO / "Datasets" / "instant_search.json"
PRODUCT_COUNT = len(json.loads(PRODUCTS_FILE.read_text()))

SETTINGS = {
    "searchableAttributes": ["brand", "name", "categories", "unordered(description)"],
    "attributesForFaceting": ["searchable(brand)", "categories", "price"],
    "customRanking": ["desc(popularity)"],
}


@pytest.fixture(scope="module")
def server():
    with keyed_server(r"POST /1/indexes/\S+/query 200") as port:
        yield port


@pytest.fixture(scope="module")
def admin(server):
    return client_for(server, ADMIN_KEY)


@pytest.fixture(scope="module")
def products(admin):
    records = json.loads(PRODUCTS_FILE.read_text())
    for number, record in enumerate(records):
        record["objectID"] = "p%04d" % number
    responses = admin.save_objects("products", records, wait_for_tasks=True, batch_size=1000)
    assert len(responses) == -(-len(records) // 1000) and all(len(r.object_ids) > 0 for r in responses)
    task = admin.set_settings("products", SETTINGS)
    admin.wait_for_task("products", task.task_id)
    return records


def test_search_one_index(admin, products):
    response = admin.search_single_index("products", {"query": "samsung galaxy", "hitsPerPage": 5, "facets": ["brand"]})
    assert response.nb_hits > 5 and len(response.hits) == 5
    assert all("Samsung" in hit.brand or "Galaxy" in hit.name for hit in response.hits)
    assert response.facets["brand"]["Samsung"] > 0
    assert response.hits[0].highlight_result["name"].actual_instance.match_level in ("full", "partial")


def test_search_several_indices(admin, products):
    admin.wait_for_task("movies", admin.save_object("movies", {"objectID": "m1", "title": "Apple of my eye"}).task_id)
    responses = admin.search({"requests": [
        {"indexName": "products", "query": "apple", "hitsPerPage": 2},
        {"indexName": "movies", "query": "apple"},
    ]})
    first, second = (result.actual_instance for result in responses.results)
    assert first.nb_hits > 2 and first.index == "products"
    assert [hit.object_id for hit in second.hits] == ["m1"]


def test_facet_value_search(admin, products):
    response = admin.search_for_facet_values("products", "brand", {"facetQuery": "sams"})
    assert response.facet_hits[0].value == "Samsung"
    assert response.facet_hits[0].highlighted == "<em>Sams</em>ung"
    assert response.facet_hits[0].count > 0


def test_browse_every_page(admin, products):
    seen = []
    admin.browse_objects("products", lambda page: seen.extend(hit.object_id for hit in page.hits), {"hitsPerPage": 1000})
    assert len(seen) == len(products) == len(set(seen))
    filtered = []
    admin.browse_objects("products", lambda page: filtered.extend(page.hits),
                         {"hitsPerPage": 50, "filters": "brand:Samsung"})
    assert filtered and all(hit.brand == "Samsung" for hit in filtered)


def test_get_objects(admin, products):
    record = admin.get_object("products", "p0000", attributes_to_retrieve=["name"])
    assert record == {"objectID": "p0000", "name": products[0]["name"]}
    response = admin.get_objects({"requests": [{"indexName": "products", "objectID": "p0001"},
                                               {"indexName": "products", "objectID": "missing"}]})
    assert response.results[0]["objectID"] == "p0001" and response.results[1] is None


def test_partial_updates_with_each_operation(admin):
    admin.wait_for_task("items", admin.save_object("items", {"objectID": "i1", "stock": 10, "tags": ["a"], "version": 1}).task_id)
    for update in [
        {"stock": {"_operation": "Increment", "value": 5}},
        {"stock": {"_operation": "Decrement", "value": 2}},
        {"tags": {"_operation": "Add", "value": "b"}},
        {"tags": {"_operation": "AddUnique", "value": "a"}},
        {"tags": {"_operation": "AddUnique", "value": "c"}},
        {"tags": {"_operation": "Remove", "value": "b"}},
        {"version": {"_operation": "IncrementFrom", "value": 1}},
        {"version": {"_operation": "IncrementFrom", "value": 1}, "ignored": True},
        {"seen": {"_operation": "IncrementSet", "value": 100}},
        {"seen": {"_operation": "IncrementSet", "value": 50}},
    ]:
        response = admin.partial_update_object("items", "i1", update)
        admin.wait_for_task("items", response.task_id)
    assert admin.get_object("items", "i1") == {"objectID": "i1", "stock": 13, "tags": ["a", "c"], "version": 2, "seen": 100}
    admin.partial_update_object("items", "nope", {"x": 1}, create_if_not_exists=False)
    with pytest.raises(RequestException) as missing:
        admin.get_object("items", "nope")
    assert missing.value.status_code == 404
    responses = admin.partial_update_objects("items", [{"objectID": "i2", "stock": 1}], create_if_not_exists=True,
                                             wait_for_tasks=True)
    assert responses[0].object_ids == ["i2"]


def test_deletes(admin):
    admin.save_objects("trash", [{"objectID": str(n), "kind": "even" if n % 2 == 0 else "odd"} for n in range(10)],
                       wait_for_tasks=True)
    admin.wait_for_task("trash", admin.set_settings("trash", {"attributesForFaceting": ["kind"]}).task_id)
    admin.wait_for_task("trash", admin.delete_object("trash", "0").task_id)
    admin.delete_objects("trash", ["1", "2"], wait_for_tasks=True)
    admin.wait_for_task("trash", admin.delete_by("trash", {"filters": "kind:odd"}).task_id)
    assert sorted(hit.object_id for hit in admin.search_single_index("trash", {}).hits) == ["4", "6", "8"]
    admin.wait_for_task("trash", admin.clear_objects("trash").task_id)
    assert admin.search_single_index("trash", {}).nb_hits == 0
    admin.wait_for_task("trash", admin.delete_index("trash").task_id)
    assert not admin.index_exists("trash")


def test_replace_all_objects(admin):
    admin.save_objects("catalog", [{"objectID": "old1", "name": "old"}, {"objectID": "old2", "name": "old"}], wait_for_tasks=True)
    admin.wait_for_task("catalog", admin.set_settings("catalog", {"searchableAttributes": ["name"]}).task_id)
    admin.save_synonyms("catalog", [{"objectID": "s", "type": "synonym", "synonyms": ["new", "fresh"]}])
    response = admin.replace_all_objects("catalog", [{"objectID": "new%d" % n, "name": "new"} for n in range(5)], batch_size=2)
    assert len(response.batch_responses) == 3
    assert sorted(hit.object_id for hit in admin.search_single_index("catalog", {"query": "fresh"}).hits) == \
        ["new0", "new1", "new2", "new3", "new4"]
    assert admin.get_settings("catalog").searchable_attributes == ["name"]
    assert [item.name for item in admin.list_indices().items if item.name.startswith("catalog")] == ["catalog"]


def test_copy_and_move(admin, products):
    admin.wait_for_task("products_copy", admin.operation_index(
        "products", {"operation": "copy", "destination": "products_copy"}).task_id)
    assert admin.search_single_index("products_copy", {"query": "samsung"}).nb_hits == \
        admin.search_single_index("products", {"query": "samsung"}).nb_hits
    admin.wait_for_task("settings_only", admin.operation_index(
        "products", {"operation": "copy", "destination": "settings_only", "scope": ["settings"]}).task_id)
    assert admin.get_settings("settings_only").custom_ranking == ["desc(popularity)"]
    assert admin.search_single_index("settings_only", {}).nb_hits == 0
    admin.wait_for_task("products_moved", admin.operation_index(
        "products_copy", {"operation": "move", "destination": "products_moved"}).task_id)
    assert not admin.index_exists("products_copy")
    assert admin.search_single_index("products_moved", {}).nb_hits == len(json.loads(PRODUCTS_FILE.read_text()))


def test_synonyms(admin):
    admin.save_objects("syn", [{"objectID": "1", "name": "television set"}, {"objectID": "2", "name": "couch"}], wait_for_tasks=True)
    response = admin.save_synonyms("syn", [
        {"objectID": "tv", "type": "synonym", "synonyms": ["tv", "television"]},
        {"objectID": "sofa", "type": "oneWaySynonym", "input": "sofa", "synonyms": ["couch"]},
    ], replace_existing_synonyms=True)
    admin.wait_for_task("syn", response.task_id)
    assert [hit.object_id for hit in admin.search_single_index("syn", {"query": "tv"}).hits] == ["1"]
    assert [hit.object_id for hit in admin.search_single_index("syn", {"query": "sofa"}).hits] == ["2"]
    assert admin.get_synonym("syn", "tv").synonyms == ["tv", "television"]
    found = admin.search_synonyms("syn", {"query": "couch"})
    assert found.nb_hits == 1 and found.hits[0].object_id == "sofa"
    admin.wait_for_task("syn", admin.save_synonym("syn", "extra", {"objectID": "extra", "type": "synonym",
                                                                  "synonyms": ["a", "b"]}).task_id)
    admin.wait_for_task("syn", admin.delete_synonym("syn", "tv").task_id)
    assert admin.search_single_index("syn", {"query": "tv"}).nb_hits == 0
    admin.wait_for_task("syn", admin.clear_synonyms("syn").task_id)
    assert admin.search_synonyms("syn", {}).nb_hits == 0


def test_list_indices(admin, products):
    items = {item.name: item for item in admin.list_indices().items}
    assert items["products"].entries == len(products)
    assert items["products"].pending_task is False and items["products"].updated_at


def test_search_key_has_the_search_acl_only(server, products):
    search = client_for(server, SEARCH_KEY)
    assert search.search_single_index("products", {"query": "apple"}).nb_hits > 0
    with pytest.raises(RequestException) as refused:
        search.save_object("products", {"name": "intruder"})
    assert refused.value.status_code == 403 and "Method not allowed with this API key" in str(refused.value)
    wrong = client_for(server, "wrong-key")
    with pytest.raises(RequestException) as invalid:
        wrong.search_single_index("products", {})
    assert invalid.value.status_code == 403 and "Invalid Application-ID or API key" in str(invalid.value)


def test_secured_api_key_with_a_filter(admin, server, products):
    key = admin.generate_secured_api_key(SEARCH_KEY, {"filters": "brand:Apple", "restrictIndices": ["products"]})
    secured = client_for(server, key)
    response = secured.search_single_index("products", {"query": "", "hitsPerPage": 50, "filters": "price > 100"})
    assert response.nb_hits > 0
    assert all(hit.brand == "Apple" and hit.price > 100 for hit in response.hits)
    with pytest.raises(RequestException) as refused:
        secured.search_single_index("movies", {})
    assert refused.value.status_code == 403 and "Index not allowed with this API key" in str(refused.value)


def test_secured_api_key_with_an_expiry(admin, server, products):
    valid = client_for(server, admin.generate_secured_api_key(SEARCH_KEY, {"validUntil": int(time.time()) + 3600}))
    assert valid.search_single_index("products", {"query": "apple"}).nb_hits > 0
    expired = client_for(server, admin.generate_secured_api_key(SEARCH_KEY, {"validUntil": int(time.time()) - 1}))
    with pytest.raises(RequestException) as refused:
        expired.search_single_index("products", {})
    assert refused.value.status_code == 403


def test_geo_search(admin, server):
    """Geo parameters through the client's models: a radius, the automatic radius, a box and a
    polygon, with _rankingInfo's geo entries, and a secured key restricted to an area."""
    places = [
        {"objectID": "louvre", "name": "Louvre cafe", "_geoloc": {"lat": 48.8606, "lng": 2.3376}},
        {"objectID": "orsay", "name": "Orsay cafe", "_geoloc": {"lat": 48.8600, "lng": 2.3266}},
        {"objectID": "eiffel", "name": "Eiffel cafe", "_geoloc": [{"lat": 48.8584, "lng": 2.2945}, {"lat": 48.8570, "lng": 2.2950}]},
        {"objectID": "lyon", "name": "Lyon cafe", "_geoloc": {"lat": 45.7640, "lng": 4.8357}},
        {"objectID": "nowhere", "name": "Online cafe"},
    ]
    admin.wait_for_task("places", admin.save_objects("places", places, wait_for_tasks=True)[0].task_id)
    around = admin.search_single_index("places", {
        "query": "cafe", "aroundLatLng": "48.8566, 2.3522", "aroundRadius": 5000, "getRankingInfo": True})
    assert [hit.object_id for hit in around.hits] == ["louvre", "orsay", "eiffel"]
    info = around.hits[0].ranking_info
    assert info.matched_geo_location.distance > 1000 and info.geo_precision == 10
    assert info.geo_distance == info.matched_geo_location.distance // 10
    automatic = admin.search_single_index("places", {"query": "", "aroundLatLng": "48.8566, 2.3522"})
    assert automatic.nb_hits == 4 and int(automatic.automatic_radius) > 390_000
    box = admin.search_single_index("places", {"insideBoundingBox": [[48.85, 2.32, 48.87, 2.34]]})
    assert sorted(hit.object_id for hit in box.hits) == ["louvre", "orsay"]
    polygon = admin.search_single_index("places", {"insidePolygon": [[48.9, 2.2, 48.9, 2.31, 48.8, 2.31, 48.8, 2.2]]})
    assert [hit.object_id for hit in polygon.hits] == ["eiffel"]
    paris_only = client_for(server, admin.generate_secured_api_key(SEARCH_KEY, {"insideBoundingBox": [[48.8, 2.2, 48.9, 2.4]]}))
    assert paris_only.search_single_index("places", {"query": "cafe"}).nb_hits == 3


def test_replicas_follow_their_primary(admin):
    admin.save_objects("shop", [{"objectID": "a", "name": "lamp", "price": 30}, {"objectID": "b", "name": "lamp shade", "price": 10}],
                       wait_for_tasks=True)
    admin.wait_for_task("shop", admin.set_settings("shop", {
        "searchableAttributes": ["name"], "replicas": ["shop_price_asc", "virtual(shop_price_desc)"]}).task_id)
    admin.wait_for_task("shop_price_asc", admin.set_settings("shop_price_asc", {
        "ranking": ["asc(price)", "typo", "geo", "words", "filters", "proximity", "attribute", "exact", "custom"]}).task_id)
    admin.wait_for_task("shop_price_desc", admin.set_settings("shop_price_desc", {"customRanking": ["desc(price)"]}).task_id)
    assert [hit.object_id for hit in admin.search_single_index("shop_price_asc", {"query": "lamp"}).hits] == ["b", "a"]
    admin.wait_for_task("shop", admin.save_object("shop", {"objectID": "c", "name": "lamp bulb", "price": 2}).task_id)
    assert [hit.object_id for hit in admin.search_single_index("shop_price_asc", {"query": "lamp"}).hits] == ["c", "b", "a"]
    # replace_all_objects on a primary (a temporary index moved over it): the replicas follow.
    admin.replace_all_objects("shop", [{"objectID": "d", "name": "desk lamp", "price": 50}, {"objectID": "e", "name": "lamp", "price": 5}])
    assert [hit.object_id for hit in admin.search_single_index("shop_price_asc", {"query": "lamp"}).hits] == ["e", "d"]
    assert admin.search_single_index("shop_price_desc", {"query": "lamp"}).nb_hits == 2
    # Records are written to the primary only, as with Algolia.
    with pytest.raises(RequestException) as refused:
        admin.save_object("shop_price_asc", {"objectID": "x", "name": "lamp"})
    assert refused.value.status_code == 400 and "replica of shop" in str(refused.value)
    listed = {item.name: item for item in admin.list_indices().items if item.name.startswith("shop")}
    assert listed["shop_price_asc"].primary == "shop" and listed["shop_price_desc"].primary == "shop"
    assert listed["shop"].replicas == ["shop_price_asc", "virtual(shop_price_desc)"]
    assert admin.get_settings("shop_price_asc").primary == "shop"
