"""Contract scenario: Algolia's Rules API and rule application, driven by the official Algolia
Python client (algoliasearch from PyPI), unchanged but for its host, against `offline-search serve`
started from the built binary on a free port.

Rules go in as the client's models (Rule, Condition, Consequence, ...) and as plain dicts, as the
client accepts both; every answer comes back through the client's models (Rule,
SearchRulesResponse, SearchResponse, UpdatedAtResponse), so an answer they cannot decode fails here.
Run by Tests/Contract/run.sh.
"""

import pytest
from algoliasearch.http.exceptions import RequestException
from algoliasearch.search.models.anchoring import Anchoring
from algoliasearch.search.models.condition import Condition
from algoliasearch.search.models.consequence import Consequence
from algoliasearch.search.models.consequence_hide import ConsequenceHide
from algoliasearch.search.models.consequence_params import ConsequenceParams
from algoliasearch.search.models.consequence_query import ConsequenceQuery
from algoliasearch.search.models.consequence_query_object import ConsequenceQueryObject
from algoliasearch.search.models.edit import Edit
from algoliasearch.search.models.edit_type import EditType
from algoliasearch.search.models.promote import Promote
from algoliasearch.search.models.promote_object_id import PromoteObjectID
from algoliasearch.search.models.redirect_url import RedirectURL
from algoliasearch.search.models.rendering_content import RenderingContent
from algoliasearch.search.models.rule import Rule
from algoliasearch.search.models.search_for_hits import SearchForHits
from algoliasearch.search.models.search_method_params import SearchMethodParams
from algoliasearch.search.models.search_params_object import SearchParamsObject
from algoliasearch.search.models.search_query import SearchQuery
from algoliasearch.search.models.search_response import SearchResponse
from algoliasearch.search.models.search_rules_params import SearchRulesParams
from algoliasearch.search.models.search_rules_response import SearchRulesResponse
from local_server import ADMIN_KEY, SEARCH_KEY, client_for, keyed_server


# A small shop, so every rule's effect is known record by record: "samsung" is in the name of an
# accessory whose brand is not Samsung, "phone" in four names, "television" in three.
SHOP = "shop"
RECORDS = [
    {"objectID": "tv1", "name": "Samsung QLED television", "brand": "Samsung", "category": "tv", "price": 900, "popularity": 50},
    {"objectID": "tv2", "name": "LG OLED television", "brand": "LG", "category": "tv", "price": 1200, "popularity": 80},
    {"objectID": "tv3", "name": "Sony Bravia television", "brand": "Sony", "category": "tv", "price": 1000, "popularity": 60},
    {"objectID": "ph1", "name": "Samsung Galaxy phone", "brand": "Samsung", "category": "phone", "price": 700, "popularity": 90},
    {"objectID": "ph2", "name": "Apple iPhone phone", "brand": "Apple", "category": "phone", "price": 1000, "popularity": 100},
    {"objectID": "ph3", "name": "Google Pixel phone", "brand": "Google", "category": "phone", "price": 600, "popularity": 40},
    {"objectID": "case1", "name": "Samsung Galaxy phone case", "brand": "Generic", "category": "accessory", "price": 20, "popularity": 5},
    {"objectID": "cable", "name": "HDMI cable", "brand": "Generic", "category": "accessory", "price": 10, "popularity": 10},
]
SETTINGS = {
    "searchableAttributes": ["name", "brand", "category"],
    "attributesForFaceting": ["searchable(brand)", "category", "price"],
    "customRanking": ["desc(popularity)"],
}


@pytest.fixture(scope="module")
def server():
    with keyed_server(r"/1/indexes/\S+/rules/\S+ 200") as port:
        yield port


@pytest.fixture(scope="module")
def admin(server):
    return client_for(server, ADMIN_KEY)


@pytest.fixture(scope="module")
def shop(admin):
    responses = admin.save_objects(SHOP, [dict(record) for record in RECORDS], wait_for_tasks=True)
    assert responses[0].object_ids == [record["objectID"] for record in RECORDS]
    task = admin.set_settings(SHOP, SETTINGS)
    admin.wait_for_task(SHOP, task.task_id)
    return RECORDS


def empty_index(admin, name):
    """An index with one record and no rules (rules are saved to an index that exists)."""
    admin.save_objects(name, [{"objectID": "r1", "name": "record"}], wait_for_tasks=True)
    return name


def use_rules(admin, rules):
    """The shop's rules become exactly `rules` (models or dicts; none: cleared), once the task is
    published."""
    response = admin.save_rules(SHOP, rules, clear_existing_rules=True) if rules else admin.clear_rules(SHOP)
    admin.wait_for_task(SHOP, response.task_id)


def ids(response):
    return [hit.object_id for hit in response.hits]


def all_rule_ids(admin, index, **params):
    found = admin.search_rules(index, SearchRulesParams(hits_per_page=100, **params))
    assert isinstance(found, SearchRulesResponse) and all(isinstance(rule, Rule) for rule in found.hits)
    return sorted(rule.object_id for rule in found.hits)


# MARK: The rules API


def test_save_one_rule_and_get_it_back(admin):
    index = empty_index(admin, "rules_one")
    rule = Rule(
        object_id="pin-pixel",
        conditions=[Condition(pattern="phone", anchoring=Anchoring.CONTAINS, alternatives=True)],
        consequence=Consequence(
            promote=[Promote(PromoteObjectID(object_id="ph3", position=0))],
            hide=[ConsequenceHide(object_id="case1")],
            user_data={"banner": "pixel.png"},
            filter_promotes=False,
        ),
        description="Pixel first on phone searches",
        enabled=True,
    )
    response = admin.save_rule(index, "pin-pixel", rule)
    assert response.task_id is not None and response.updated_at
    admin.wait_for_task(index, response.task_id)

    got = admin.get_rule(index, "pin-pixel")
    assert isinstance(got, Rule)
    assert got.to_dict() == rule.to_dict(), "the rule comes back as it was saved"
    assert got.object_id == "pin-pixel" and got.description == "Pixel first on phone searches" and got.enabled is True
    assert got.conditions[0].pattern == "phone" and got.conditions[0].anchoring == "contains"
    assert got.consequence.promote[0].actual_instance.object_id == "ph3"
    assert got.consequence.promote[0].actual_instance.position == 0
    assert [hidden.object_id for hidden in got.consequence.hide] == ["case1"]
    assert got.consequence.user_data == {"banner": "pixel.png"}

    # Saving again under the same objectID replaces the rule (a dict this time).
    admin.wait_for_task(index, admin.save_rule(index, "pin-pixel", {
        "objectID": "pin-pixel",
        "conditions": [{"pattern": "pixel", "anchoring": "is"}],
        "consequence": {"userData": {"banner": "other.png"}},
    }).task_id)
    replaced = admin.get_rule(index, "pin-pixel")
    assert replaced.conditions[0].anchoring == "is" and replaced.consequence.user_data == {"banner": "other.png"}
    assert replaced.consequence.promote is None and replaced.description is None
    assert all_rule_ids(admin, index) == ["pin-pixel"]


def test_save_many_rules_with_clear_existing_rules(admin):
    index = empty_index(admin, "rules_many")
    first = [
        {"objectID": "a", "conditions": [{"pattern": "apple", "anchoring": "contains"}], "consequence": {"userData": {"n": 1}}},
        {"objectID": "b", "conditions": [{"pattern": "banana", "anchoring": "contains"}], "consequence": {"userData": {"n": 2}}},
        {"objectID": "c", "consequence": {"userData": {"n": 3}}},
    ]
    response = admin.save_rules(index, first)
    assert response.task_id is not None and response.updated_at
    admin.wait_for_task(index, response.task_id)
    assert all_rule_ids(admin, index) == ["a", "b", "c"]

    # Without clear_existing_rules: "c" replaced, "d" added, "a" and "b" kept.
    admin.wait_for_task(index, admin.save_rules(index, [
        Rule(object_id="c", consequence=Consequence(user_data={"n": 30})),
        Rule(object_id="d", consequence=Consequence(user_data={"n": 4})),
    ], clear_existing_rules=False).task_id)
    assert all_rule_ids(admin, index) == ["a", "b", "c", "d"]
    assert admin.get_rule(index, "c").consequence.user_data == {"n": 30}

    # With clear_existing_rules: the batch is all that is left.
    admin.wait_for_task(index, admin.save_rules(index, [
        Rule(object_id="e", conditions=[Condition(pattern="cherry", anchoring=Anchoring.IS)],
             consequence=Consequence(user_data={"n": 5})),
        Rule(object_id="a", consequence=Consequence(user_data={"n": 10})),
    ], forward_to_replicas=True, clear_existing_rules=True).task_id)
    assert all_rule_ids(admin, index) == ["a", "e"]
    assert admin.get_rule(index, "a").consequence.user_data == {"n": 10}
    with pytest.raises(RequestException) as missing:
        admin.get_rule(index, "b")
    assert missing.value.status_code == 404


def test_search_rules(admin):
    index = empty_index(admin, "rules_search")
    admin.wait_for_task(index, admin.save_rules(index, [
        Rule(object_id="tv-landing", conditions=[Condition(pattern="tv", anchoring=Anchoring.IS)],
             consequence=Consequence(user_data={"page": "tv"}), description="TV landing page"),
        Rule(object_id="galaxy-banner", conditions=[Condition(pattern="galaxy", anchoring=Anchoring.CONTAINS)],
             consequence=Consequence(user_data={"banner": "galaxy"}), description="Galaxy banner"),
        Rule(object_id="cheap-start", conditions=[Condition(pattern="cheap", anchoring=Anchoring.STARTSWITH)],
             consequence=Consequence(params=ConsequenceParams(filters="price < 100"))),
        Rule(object_id="mobile-layout", conditions=[Condition(context="mobile")],
             consequence=Consequence(user_data={"layout": "compact"})),
        Rule(object_id="sale-off", conditions=[Condition(pattern="sale", anchoring=Anchoring.ENDSWITH)],
             consequence=Consequence(user_data={"banner": "sale"}), enabled=False),
        Rule(object_id="always", consequence=Consequence(user_data={"always": True})),
    ]).task_id)
    everything = ["always", "cheap-start", "galaxy-banner", "mobile-layout", "sale-off", "tv-landing"]

    found = admin.search_rules(index, {})
    assert isinstance(found, SearchRulesResponse)
    assert found.nb_hits == 6 and found.page == 0 and found.nb_pages == 1
    assert sorted(rule.object_id for rule in found.hits) == everything
    assert all_rule_ids(admin, index, query="") == everything

    # query: the words of a rule's objectID, pattern or description.
    galaxy = admin.search_rules(index, SearchRulesParams(query="galaxy"))
    assert [rule.object_id for rule in galaxy.hits] == ["galaxy-banner"] and galaxy.nb_hits == 1
    assert galaxy.hits[0].description == "Galaxy banner" and galaxy.hits[0].conditions[0].anchoring == "contains"
    assert admin.search_rules(index, {"query": "nothing-like-this"}).nb_hits == 0

    # anchoring, context and enabled narrow the search.
    assert all_rule_ids(admin, index, anchoring=Anchoring.IS) == ["tv-landing"]
    assert all_rule_ids(admin, index, anchoring=Anchoring.STARTSWITH) == ["cheap-start"]
    assert all_rule_ids(admin, index, context="mobile") == ["mobile-layout"]
    assert all_rule_ids(admin, index, enabled=False) == ["sale-off"]
    assert all_rule_ids(admin, index, enabled=True) == [name for name in everything if name != "sale-off"]
    disabled = admin.search_rules(index, {"enabled": False}).hits[0]
    assert disabled.enabled is False

    # Paging: every rule once over the pages, page and nbPages as Algolia counts them.
    seen = []
    for page in range(3):
        response = admin.search_rules(index, SearchRulesParams(page=page, hits_per_page=2))
        assert response.page == page and response.nb_pages == 3 and response.nb_hits == 6
        assert len(response.hits) == 2
        seen += [rule.object_id for rule in response.hits]
    assert sorted(seen) == everything
    past = admin.search_rules(index, SearchRulesParams(page=3, hits_per_page=2))
    assert past.hits == [] and past.nb_hits == 6

    # The client's browse_rules helper pages through search_rules.
    browsed = []
    admin.browse_rules(index, lambda response: browsed.extend(rule.object_id for rule in response.hits),
                       SearchRulesParams(hits_per_page=4))
    assert sorted(browsed) == everything


def test_delete_rule_then_get_is_404(admin):
    index = empty_index(admin, "rules_delete")
    admin.wait_for_task(index, admin.save_rules(index, [
        {"objectID": "keep", "consequence": {"userData": {"kept": True}}},
        {"objectID": "drop", "conditions": [{"pattern": "drop", "anchoring": "is"}], "consequence": {"userData": {"dropped": True}}},
    ]).task_id)
    response = admin.delete_rule(index, "drop")
    assert response.task_id is not None and response.updated_at
    admin.wait_for_task(index, response.task_id)

    with pytest.raises(RequestException) as missing:
        admin.get_rule(index, "drop")
    assert missing.value.status_code == 404
    assert "ObjectID does not exist" in str(missing.value)
    assert all_rule_ids(admin, index) == ["keep"]
    assert admin.get_rule(index, "keep").consequence.user_data == {"kept": True}

    with pytest.raises(RequestException) as again:
        admin.delete_rule(index, "drop")
    assert again.value.status_code == 404


def test_clear_rules(admin, shop):
    use_rules(admin, [
        {"objectID": "banner", "consequence": {"userData": {"banner": "all.png"}}},
        {"objectID": "hide-tv2", "conditions": [{"pattern": "television", "anchoring": "contains"}],
         "consequence": {"hide": [{"objectID": "tv2"}]}},
    ])
    assert admin.search_single_index(SHOP, {"query": "television"}).user_data == [{"banner": "all.png"}]
    response = admin.clear_rules(SHOP)
    assert response.task_id is not None and response.updated_at
    admin.wait_for_task(SHOP, response.task_id)

    found = admin.search_rules(SHOP, {})
    assert found.nb_hits == 0 and found.hits == []
    plain = admin.search_single_index(SHOP, {"query": "television"})
    assert plain.user_data is None and sorted(ids(plain)) == ["tv1", "tv2", "tv3"]
    admin.wait_for_task(SHOP, admin.clear_rules(SHOP, forward_to_replicas=True).task_id)


def test_a_bad_rule_is_refused_and_nothing_is_stored(admin):
    index = empty_index(admin, "rules_bad")
    admin.wait_for_task(index, admin.save_rule(index, "existing", {
        "objectID": "existing", "consequence": {"userData": {"ok": True}}}).task_id)

    # An unknown field (a dict goes to the server as it is).
    with pytest.raises(RequestException) as unknown:
        admin.save_rule(index, "typo", {"objectID": "typo", "consequence": {"promot": [{"objectID": "ph1", "position": 0}]}})
    assert unknown.value.status_code == 400 and "promot" in str(unknown.value)

    # A field of the wrong type.
    with pytest.raises(RequestException) as wrong_type:
        admin.save_rule(index, "typed", {"objectID": "typed", "consequence": {"hide": "ph1"}})
    assert wrong_type.value.status_code == 400 and "hide" in str(wrong_type.value)

    # A model with an extra field: the client's models allow extras and send them on.
    with pytest.raises(RequestException) as extra:
        admin.save_rule(index, "extra", Rule(object_id="extra", consequence=Consequence(user_data={"x": 1}), colour="red"))
    assert extra.value.status_code == 400 and "colour" in str(extra.value)

    # A batch with a rule without objectID, after a good one: the whole batch is refused.
    with pytest.raises(RequestException) as no_id:
        admin.save_rules(index, [
            {"objectID": "good", "consequence": {"userData": {"good": True}}},
            {"consequence": {"userData": {"anonymous": True}}},
        ])
    assert no_id.value.status_code == 400 and "objectID" in str(no_id.value)

    # A batch with clear_existing_rules and a wrong rule clears nothing either.
    with pytest.raises(RequestException) as cleared:
        admin.save_rules(index, [{"objectID": "bad", "conditions": [{"pattern": "x", "anchoring": "nowhere"}],
                                  "consequence": {"userData": {}}}], clear_existing_rules=True)
    assert cleared.value.status_code == 400 and "anchoring" in str(cleared.value)

    assert all_rule_ids(admin, index) == ["existing"]
    for name in ["typo", "typed", "extra", "good", "bad"]:
        with pytest.raises(RequestException) as missing:
            admin.get_rule(index, name)
        assert missing.value.status_code == 404


def test_the_search_key_cannot_write_rules(server, admin):
    index = empty_index(admin, "rules_acl")
    search = client_for(server, SEARCH_KEY)
    with pytest.raises(RequestException) as refused:
        search.save_rule(index, "intruder", {"objectID": "intruder", "consequence": {"userData": {}}})
    assert refused.value.status_code == 403 and "Method not allowed with this API key" in str(refused.value)
    with pytest.raises(RequestException) as refused_clear:
        search.clear_rules(index)
    assert refused_clear.value.status_code == 403
    assert admin.search_rules(index, {}).nb_hits == 0


# MARK: Rules applied to searches


def test_user_data(admin, shop):
    use_rules(admin, [Rule(
        object_id="tv-banner",
        conditions=[Condition(pattern="television", anchoring=Anchoring.CONTAINS)],
        consequence=Consequence(user_data={"banner": "tv-sale.png", "discount": 10}),
    )])
    response = admin.search_single_index(SHOP, {"query": "television"})
    assert isinstance(response, SearchResponse)
    assert response.user_data == [{"banner": "tv-sale.png", "discount": 10}]
    assert sorted(ids(response)) == ["tv1", "tv2", "tv3"]
    assert admin.search_single_index(SHOP, {"query": "phone"}).user_data is None


def test_promoted_hit_first_with_ranking_info_and_applied_rules(admin, shop):
    use_rules(admin, [])
    plain = admin.search_single_index(SHOP, {"query": "phone", "getRankingInfo": True})
    assert ids(plain)[0] == "ph2" and "ph3" in ids(plain) and "cable" not in ids(plain)
    assert plain.applied_rules is None

    use_rules(admin, [Rule(
        object_id="pin-pixel",
        conditions=[Condition(pattern="phone", anchoring=Anchoring.CONTAINS)],
        consequence=Consequence(promote=[Promote(PromoteObjectID(object_id="ph3", position=0)),
                                         Promote(PromoteObjectID(object_id="cable", position=2))]),
    )])
    response = admin.search_single_index(SHOP, SearchParamsObject(query="phone", get_ranking_info=True))
    assert isinstance(response, SearchResponse)
    assert ids(response)[0] == "ph3", "the promoted record first"
    assert ids(response)[2] == "cable", "a promoted record is shown at its position even when it does not match"
    assert sorted(ids(response)) == sorted(ids(plain) + ["cable"])
    assert response.hits[0].ranking_info.promoted is True
    assert response.hits[2].ranking_info.promoted is True
    assert all(not hit.ranking_info.promoted for place, hit in enumerate(response.hits) if place not in (0, 2))
    assert response.applied_rules == [{"objectID": "pin-pixel"}]

    # appliedRules comes with getRankingInfo only; the promotion does not.
    quiet = admin.search_single_index(SHOP, {"query": "phone"})
    assert ids(quiet)[0] == "ph3" and quiet.applied_rules is None and quiet.hits[0].ranking_info is None

    # The same rule in a multi-index search, through SearchMethodParams.
    results = admin.search(SearchMethodParams(requests=[
        SearchQuery(SearchForHits(index_name=SHOP, query="phone", get_ranking_info=True)),
    ])).results
    first = results[0].actual_instance
    assert ids(first)[0] == "ph3" and first.hits[0].ranking_info.promoted is True
    assert first.applied_rules == [{"objectID": "pin-pixel"}]


def test_hidden_record_is_gone(admin, shop):
    use_rules(admin, [{
        "objectID": "hide-lg",
        "conditions": [{"pattern": "television", "anchoring": "contains"}],
        "consequence": {"hide": [{"objectID": "tv2"}]},
    }])
    response = admin.search_single_index(SHOP, {"query": "television"})
    assert sorted(ids(response)) == ["tv1", "tv3"] and response.nb_hits == 2
    # Only where the rule applies.
    assert "tv2" in ids(admin.search_single_index(SHOP, {"query": "oled"}))


def test_consequence_filters_and_query_edits(admin, shop):
    use_rules(admin, [Rule(
        object_id="cheap",
        conditions=[Condition(pattern="cheap", anchoring=Anchoring.CONTAINS)],
        consequence=Consequence(params=ConsequenceParams(
            filters="price < 800",
            query=ConsequenceQuery(ConsequenceQueryObject(edits=[Edit(type=EditType.REMOVE, delete="cheap")])),
        )),
    )])
    # "cheap" is in no record: it is removed from the query, and the rule's filter applies.
    response = admin.search_single_index(SHOP, {"query": "cheap phone"})
    assert sorted(ids(response)) == ["case1", "ph1", "ph3"]
    # The rule's filters are ANDed with the search's.
    narrowed = admin.search_single_index(SHOP, {"query": "cheap phone", "filters": "category:phone"})
    assert sorted(ids(narrowed)) == ["ph1", "ph3"]
    assert admin.search_single_index(SHOP, {"query": "cheap phone", "enableRules": False}).nb_hits == 0


def test_facet_placeholder_with_automatic_facet_filters(admin, shop):
    use_rules(admin, [{
        "objectID": "brand-filter",
        "conditions": [{"pattern": "{facet:brand}", "anchoring": "contains"}],
        "consequence": {"params": {
            "automaticFacetFilters": [{"facet": "brand"}],
            "query": {"edits": [{"type": "remove", "delete": "{facet:brand}"}]},
        }},
    }])
    assert sorted(ids(admin.search_single_index(SHOP, {"query": "samsung phone", "enableRules": False}))) == ["case1", "ph1"]
    response = admin.search_single_index(SHOP, {"query": "samsung phone", "getRankingInfo": True})
    assert ids(response) == ["ph1"], "only the Samsung brand, though the case's name says Samsung"
    assert response.applied_rules == [{"objectID": "brand-filter"}]
    assert sorted(ids(admin.search_single_index(SHOP, {"query": "samsung"}))) == ["ph1", "tv1"]
    assert admin.get_rule(SHOP, "brand-filter").consequence.params.query.actual_instance.edits[0].delete == "{facet:brand}"


def test_rendering_content_redirect(admin, shop):
    use_rules(admin, [Rule(
        object_id="returns-page",
        conditions=[Condition(pattern="returns", anchoring=Anchoring.IS)],
        consequence=Consequence(params=ConsequenceParams(
            rendering_content=RenderingContent(redirect=RedirectURL(url="https://shop.example.com/returns")))),
    )])
    response = admin.search_single_index(SHOP, {"query": "returns"})
    assert response.nb_hits == 0
    assert response.rendering_content.redirect.url == "https://shop.example.com/returns"
    plain = admin.search_single_index(SHOP, {"query": "returns", "enableRules": False})
    assert plain.rendering_content is None or plain.rendering_content.redirect is None
    # anchoring "is": a longer query does not trigger it.
    longer = admin.search_single_index(SHOP, {"query": "returns policy"})
    assert longer.rendering_content is None or longer.rendering_content.redirect is None


def test_context_rule_only_with_rule_contexts(admin, shop):
    use_rules(admin, [Rule(
        object_id="mobile-layout",
        conditions=[Condition(context="mobile")],
        consequence=Consequence(user_data={"layout": "compact"},
                                promote=[Promote(PromoteObjectID(object_id="ph3", position=0))]),
    )])
    without = admin.search_single_index(SHOP, {"query": "phone"})
    assert without.user_data is None and ids(without)[0] == "ph2"
    mobile = admin.search_single_index(SHOP, SearchParamsObject(query="phone", rule_contexts=["mobile"]))
    assert mobile.user_data == [{"layout": "compact"}] and ids(mobile)[0] == "ph3"
    desktop = admin.search_single_index(SHOP, {"query": "phone", "ruleContexts": ["desktop"]})
    assert desktop.user_data is None and ids(desktop)[0] == "ph2"


def test_enable_rules_false_gives_the_plain_answer(admin, shop):
    use_rules(admin, [])
    before = admin.search_single_index(SHOP, {"query": "television", "getRankingInfo": True})

    use_rules(admin, [
        Rule(object_id="pin-sony", conditions=[Condition(pattern="television", anchoring=Anchoring.CONTAINS)],
             consequence=Consequence(promote=[Promote(PromoteObjectID(object_id="tv3", position=0))],
                                     hide=[ConsequenceHide(object_id="tv1")], user_data={"banner": "sony.png"})),
        Rule(object_id="everywhere", consequence=Consequence(user_data={"site": "shop"})),
        Rule(object_id="disabled", consequence=Consequence(user_data={"never": True}), enabled=False),
    ])
    ruled = admin.search_single_index(SHOP, {"query": "television", "getRankingInfo": True})
    assert ids(ruled) == ["tv3", "tv2"] and ruled.hits[0].ranking_info.promoted is True
    assert len(ruled.user_data) == 2 and {"banner": "sony.png"} in ruled.user_data and {"site": "shop"} in ruled.user_data
    assert sorted(rule["objectID"] for rule in ruled.applied_rules) == ["everywhere", "pin-sony"]

    off = admin.search_single_index(SHOP, SearchParamsObject(query="television", get_ranking_info=True, enable_rules=False))
    assert ids(off) == ids(before) and off.nb_hits == before.nb_hits == 3
    assert off.user_data is None and not off.applied_rules
    assert all(not hit.ranking_info.promoted for hit in off.hits)
