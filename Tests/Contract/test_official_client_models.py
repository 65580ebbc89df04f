"""Contract tests: what `offline-search` answers decodes with the official Algolia Python
client's models (algoliasearch from PyPI), field by field.

Run by Tests/Contract/run.sh (which builds the CLI and creates the virtual environment).
"""
import json
import os
import subprocess
import tempfile
from pathlib import Path

import pytest
from algoliasearch.search.models.error_base import ErrorBase
from algoliasearch.search.models.highlight_result_option import HighlightResultOption
from algoliasearch.search.models.search_for_facet_values_response import SearchForFacetValuesResponse
from algoliasearch.search.models.search_response import SearchResponse
from algoliasearch.search.models.search_responses import SearchResponses
from algoliasearch.search.models.settings_response import SettingsResponse
from algoliasearch.search.models.snippet_result_option import SnippetResultOption

REPO = Path(__file__).resolve().parents[2]
# The project's real products (../shared/datasets, beside the repository: CI has it, a user's clone
# does not); where they are absent, the generated products of Datasets/ (the same fields).
SHARED = REPO.parent / "shared" / "datasets"
PRODUCTS_FILE = SHARED / "products.json" if (SHARED / "products.json").exists() else REPO / "Datasets" / "instant_search.json"
PRODUCT_COUNT = len(json.loads(PRODUCTS_FILE.read_text()))
BINARY = Path(os.environ.get("OFFLINE_SEARCH_BIN", REPO / ".build" / "debug" / "offline-search"))

SETTINGS = {
    "searchableAttributes": ["brand", "name", "categories", "unordered(description)"],
    "attributesForFaceting": ["searchable(brand)", "categories", "price", "popularity"],
    "customRanking": ["desc(popularity)"],
    "attributesToSnippet": ["description:8"],
}


def run(*args, stdin=None):
    result = subprocess.run([str(BINARY), *args], input=stdin, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def data_dir():
    with tempfile.TemporaryDirectory() as directory:
        settings = Path(directory) / "settings.json"
        settings.write_text(json.dumps(SETTINGS))
        run("import", "--data", directory, "products", str(PRODUCTS_FILE), "--settings", str(settings))
        yield directory


def query(data_dir, *requests):
    lines = run("query", "--data", data_dir, stdin="\n".join(json.dumps(r) for r in requests) + "\n").splitlines()
    assert len(lines) == len(requests)
    return lines


def test_search_response_decodes_with_every_field(data_dir):
    [line] = query(data_dir, {"indexName": "products", "query": "samsung gal", "facets": ["brand", "price"],
                              "hitsPerPage": 5, "clickAnalytics": True, "getRankingInfo": True})
    response = SearchResponse.from_json(line)
    assert response.nb_hits > 5
    assert response.page == 0 and response.hits_per_page == 5
    assert response.nb_pages == -(-response.nb_hits // 5)
    assert response.processing_time_ms is not None and response.processing_time_ms >= 0
    assert response.query == "samsung gal"
    assert "query=samsung+gal" in response.params
    assert response.index == "products"
    assert response.exhaustive.nb_hits is True and response.exhaustive_nb_hits is True
    assert response.query_id and len(response.query_id) == 32
    assert len(response.hits) == 5
    assert all(hit.object_id for hit in response.hits)
    ranking = response.hits[0].ranking_info
    assert ranking is not None and ranking.nb_typos == 0 and ranking.words == 2 and ranking.user_score > 0
    brand_counts = response.facets["brand"]
    assert brand_counts["Samsung"] == max(brand_counts.values())
    stats = response.facets_stats["price"]
    assert stats.min <= stats.avg <= stats.max and stats.sum > 0

    name = response.hits[0].highlight_result["name"].actual_instance
    assert isinstance(name, HighlightResultOption)
    assert "<em>Samsung</em>" in name.value and "<em>Gal</em>axy" in name.value
    assert name.match_level == "full"
    assert name.matched_words == ["samsung", "gal"]

    # An array attribute is mirrored as an array (the client keeps its elements as plain JSON);
    # each element must itself decode as a highlight result.
    categories = response.hits[0].highlight_result["categories"].actual_instance
    assert isinstance(categories, list) and len(categories) >= 1
    for element in categories:
        assert isinstance(HighlightResultOption.from_dict(element), HighlightResultOption)

    snippet = response.hits[0].snippet_result["description"].actual_instance
    assert isinstance(snippet, SnippetResultOption)
    assert snippet.match_level in ("none", "partial", "full")


def test_offset_length_and_facet_only_queries(data_dir):
    paged, facet_only = query(
        data_dir,
        {"indexName": "products", "query": "case", "offset": 3, "length": 4},
        {"indexName": "products", "query": "", "hitsPerPage": 0, "facets": "brand"},
    )
    paged = SearchResponse.from_json(paged)
    assert len(paged.hits) == 4
    assert json.loads(query(data_dir, {"indexName": "products", "query": "case", "hitsPerPage": 7})[0])["hits"][3]["objectID"] \
        == paged.hits[0].object_id
    facet_only = SearchResponse.from_json(facet_only)
    assert facet_only.hits == [] and facet_only.nb_hits == PRODUCT_COUNT and facet_only.nb_pages == 0
    assert sum(facet_only.facets["brand"].values()) <= PRODUCT_COUNT


def test_multi_search_results_decode_as_search_responses(data_dir):
    lines = query(
        data_dir,
        {"indexName": "products", "query": "iphone", "facetFilters": [["brand:Apple", "brand:Incipio"]]},
        {"indexName": "products", "type": "facet", "facet": "brand", "facetQuery": "sam", "highlightPreTag": "<b>",
         "highlightPostTag": "</b>"},
    )
    results = SearchResponses.from_json('{"results": [' + ",".join(lines) + "]}")
    hits, facets = (r.actual_instance for r in results.results)
    assert isinstance(hits, SearchResponse) and hits.nb_hits > 0
    assert isinstance(facets, SearchForFacetValuesResponse)
    assert facets.facet_hits[0].value == "Samsung"
    assert facets.facet_hits[0].highlighted == "<b>Sam</b>sung"
    assert facets.facet_hits[0].count > 0


def test_facet_value_search_decodes(data_dir):
    [line] = query(data_dir, {"indexName": "products", "type": "facet", "facet": "brand", "facetQuery": "o", "maxFacetHits": 3})
    response = SearchForFacetValuesResponse.from_json(line)
    assert len(response.facet_hits) == 3
    counts = [hit.count for hit in response.facet_hits]
    assert counts == sorted(counts, reverse=True)
    assert response.exhaustive_facets_count is True


def test_errors_decode_as_error_bodies(data_dir):
    missing, bad_parameter, bad_filter, not_searchable = query(
        data_dir,
        {"indexName": "nope", "query": "x"},
        {"indexName": "products", "hitsPerPage": 5000},
        {"indexName": "products", "filters": "brand:Apple OR"},
        {"indexName": "products", "type": "facet", "facet": "categories", "facetQuery": "x"},
    )
    assert json.loads(missing)["status"] == 404
    assert ErrorBase.from_json(missing).message == "Index nope does not exist"
    assert json.loads(bad_parameter)["status"] == 400 and "hitsPerPage" in ErrorBase.from_json(bad_parameter).message
    assert json.loads(bad_filter)["status"] == 400 and "filters" in ErrorBase.from_json(bad_filter).message
    assert ErrorBase.from_json(not_searchable).message == \
        "Cannot search in `categories` attribute, you need to add `searchable(categories)` to attributesForFaceting."


def test_settings_decode(data_dir):
    settings = SettingsResponse.from_json(run("settings", "--data", data_dir, "products"))
    assert settings.searchable_attributes == SETTINGS["searchableAttributes"]
    assert settings.attributes_for_faceting == SETTINGS["attributesForFaceting"]
    assert settings.custom_ranking == ["desc(popularity)"]
    assert settings.hits_per_page == 20 and settings.pagination_limited_to == 1000
    assert settings.highlight_pre_tag == "<em>"


def test_list_indices_decodes_with_the_official_model(data_dir):
    from algoliasearch.search.models.list_indices_response import ListIndicesResponse

    run("settings", "--data", data_dir, "products", "--set", json.dumps({"replicas": ["products_price_asc"]}))
    response = ListIndicesResponse.from_json(run("list", "--data", data_dir, "--json"))
    by_name = {item.name: item for item in response.items}
    assert response.nb_pages == 1
    products = by_name["products"]
    assert products.entries == PRODUCT_COUNT
    assert products.data_size > 0 and products.file_size > products.data_size
    assert products.created_at <= products.updated_at
    assert products.number_of_pending_tasks == 0 and products.pending_task is False
    assert products.replicas == ["products_price_asc"]
    assert by_name["products_price_asc"].primary == "products"
    run("settings", "--data", data_dir, "products", "--set", json.dumps({"replicas": []}))
