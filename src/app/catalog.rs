//! The rule catalog pages: `#/rules` (every rule by category, with a filter) and
//! `#/rules/<id>` (one rule, with its example trace diagnosed live). They render the view models
//! of [`crate::catalog`].

use super::explanation::Explanation;
use super::trace::TraceCard;
use super::Route;
use crate::catalog;
use gloo::storage::{SessionStorage, Storage};
use web_sys::HtmlInputElement;
use yew::prelude::*;
use yew_router::prelude::*;

/// The sessionStorage key of the rules filter.
const FILTER_KEY: &str = "trace-doctor.rule-filter";

/// `#/rules`: every rule, grouped by category.
#[function_component(RuleList)]
pub fn rule_list() -> Html {
    let lang = use_context::<crate::lang::Lang>().unwrap_or_default();
    let m = lang.msgs();
    // The list shows every rule's title and summary: their prose, loaded once.
    let loads = use_state(|| 0u32);
    // The languages whose loading has ended (loaded, or failed: then the ids stand in).
    let finished = use_mut_ref(Vec::<crate::lang::Lang>::new);
    {
        let loads = loads.clone();
        let finished = finished.clone();
        use_effect_with(lang, move |lang| {
            let lang = *lang;
            let need = super::prose::missing_of_all(lang);
            if !need.is_empty() {
                let n = *loads;
                super::prose::load_then(need, lang, move || {
                    finished.borrow_mut().push(lang);
                    loads.set(n + 1);
                });
            }
        });
    }
    let waiting =
        !super::prose::missing_of_all(lang).is_empty() && !finished.borrow().contains(&lang);
    let groups = use_memo((lang, *loads), |(lang, _)| catalog::groups_in(*lang));
    // Kept for the tab (sessionStorage), so coming back from a rule page finds it as it was.
    let filter = use_state(|| SessionStorage::get::<String>(FILTER_KEY).unwrap_or_default());
    let oninput = {
        let filter = filter.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(i) = e.target_dyn_into::<HtmlInputElement>() {
                let _ = SessionStorage::set(FILTER_KEY, i.value());
                filter.set(i.value());
            }
        })
    };
    let needle = filter.trim().to_lowercase();
    let keep = |e: &catalog::Entry| needle.is_empty() || e.search_text.contains(&needle);
    let total: usize = groups.iter().map(|(_, e)| e.len()).sum();
    let shown: usize = groups
        .iter()
        .map(|(_, e)| e.iter().filter(|x| keep(x)).count())
        .sum();
    if waiting {
        return html! {
            <section class="catalog" aria-labelledby="catalog-title" aria-busy="true">
                <h2 id="catalog-title">{ lang.catalog_title(total) }</h2>
                <p class="loading" role="status">{ m.loading_rules }</p>
            </section>
        };
    }
    html! {
        <section class="catalog" aria-labelledby="catalog-title">
            <h2 key="title" id="catalog-title">{ lang.catalog_title(total) }</h2>
            <p key="intro">{ m.catalog_intro }</p>
            // Keyed, and the count always rendered: the filter box must stay the same element
            // while the list below it changes (or it loses focus as the person types).
            <p key="filter">
                <label for="rule-filter">{ m.filter_label }</label>
                <input id="rule-filter" type="search" placeholder="class, message, config key…" {oninput} value={(*filter).clone()} />
                <span class="count" role="status">{ if needle.is_empty() { String::new() } else { lang.shown_of(shown, total) } }</span>
            </p>
            <div key="groups">
            { for groups.iter().filter(|(_, e)| e.iter().any(&keep)).map(|(label, entries)| html! {
                <section class="rule-group" key={label.clone()}>
                    <h3>{ label }</h3>
                    <ul class="rule-list">
                        { for entries.iter().filter(|x| keep(x)).map(|e| html! {
                            <li key={e.id.clone()} class={classes!("rule-entry", e.severity.clone())} data-rule={e.id.clone()}>
                                <Link<Route> to={Route::Rule { id: e.id.clone() }}>{ &e.title }</Link<Route>>
                                <span class="rule-meta">{ format!(" — {} · {}", e.id, if e.platform == "jvm" { m.any_jvm } else { "Flink" }) }</span>
                                <div class="summary">{ super::raw(&e.summary_html) }</div>
                            </li>
                        }) }
                    </ul>
                </section>
            }) }
            </div>
        </section>
    }
}

/// Properties of [`RulePageView`].
#[derive(Properties, PartialEq)]
pub struct RuleProps {
    /// Rule id from the route.
    pub id: AttrValue,
    /// Puts a text into the diagnoser's input (and goes there).
    pub on_open: Callback<String>,
}

/// `#/rules/<id>`: one rule, and its example trace diagnosed live.
#[function_component(RulePageView)]
pub fn rule_page_view(props: &RuleProps) -> Html {
    let lang = use_context::<crate::lang::Lang>().unwrap_or_default();
    let m = lang.msgs();
    // The example is diagnosed here, in the page, each time the page is opened: the same code
    // path as a paste (once per rule: its page model is built again when prose arrives). The
    // page's module bundles no examples: a rule's comes with its prose file
    // (`crate::rules::example`), and is diagnosed once it is here.
    let has_example = crate::rules::example(&props.id).is_some();
    let example = use_memo((props.id.clone(), has_example), |(id, _)| {
        catalog::rule_page(id).map(|p| {
            let d = crate::diagnose(&p.example);
            (p.example, d)
        })
    });
    // The rule's prose, and that of the rules its example's diagnosis shows, loaded once per
    // rule and language; the tab's title names the rule once its prose is here.
    let loads = use_state(|| 0u32);
    let finished = use_mut_ref(Vec::<(AttrValue, crate::lang::Lang)>::new);
    {
        let loads = loads.clone();
        let finished = finished.clone();
        let example = example.clone();
        use_effect_with(
            (props.id.clone(), lang, has_example),
            move |(id, lang, _)| {
                let lang = *lang;
                let mut need: Vec<&'static crate::rules::Rule> = crate::rules::by_id(id)
                    .filter(|r| r.prose(lang).is_none())
                    .into_iter()
                    .collect();
                if let Some((_, d)) = example.as_ref() {
                    for r in super::prose::missing(d, lang) {
                        if !need.iter().any(|x| std::ptr::eq(*x, r)) {
                            need.push(r);
                        }
                    }
                }
                let route = Route::Rule { id: id.to_string() };
                let set_title = move || {
                    if let Some(d) = web_sys::window().and_then(|w| w.document()) {
                        d.set_title(&super::page_title(&route, lang));
                    }
                };
                if need.is_empty() {
                    set_title();
                } else {
                    let key = (id.clone(), lang);
                    let n = *loads;
                    super::prose::load_then(need, lang, move || {
                        finished.borrow_mut().push(key);
                        set_title();
                        loads.set(n + 1);
                    });
                }
            },
        );
    }
    let page = use_memo((props.id.clone(), lang, *loads), |(id, lang, _)| {
        catalog::rule_page_in(id, *lang)
    });
    // DOM ids get the prefix `ex-` so they do not clash with the diagnoser's; the page model
    // names rules by their prose in `lang`, loaded above.
    let model = {
        let example = example.clone();
        use_memo((props.id.clone(), lang, *loads), move |(_, lang, _)| {
            example
                .as_ref()
                .as_ref()
                .map(|(text, d)| crate::view::build_lang(text, d, "ex-", *lang))
        })
    };
    // Until the rule's prose is here (or could not be had), a line instead of its id as a title.
    let waiting = crate::rules::by_id(&props.id).is_some_and(|r| r.prose(lang).is_none())
        && !finished.borrow().contains(&(props.id.clone(), lang));
    if waiting {
        return html! {
            <article class="catalog rule-page" aria-busy="true">
                <p class="loading" role="status">{ m.loading_rules }</p>
            </article>
        };
    }
    let Some(page) = page.as_ref() else {
        return html! {
            <section class="catalog" role="alert">
                <h2>{ m.no_such_rule }</h2>
                <p>{ lang.no_rule_named(&props.id) }<Link<Route> to={Route::Rules}>{ m.see_all_rules }</Link<Route>></p>
            </section>
        };
    };
    let e = &page.entry;
    let lead = model
        .as_ref()
        .as_ref()
        .and_then(|m| m.traces.first())
        .and_then(|t| t.findings.first())
        .map(|f| f.rule.clone());
    // The page's build loads the example with the rule's prose file: when that could not be
    // had, the page says so (not that no rule matches an empty example) and offers no text.
    let example_missing = crate::rules::example(&props.id).is_none();
    let open = {
        let cb = props.on_open.clone();
        let text = page.example.clone();
        Callback::from(move |_: MouseEvent| cb.emit(text.clone()))
    };
    html! {
        <article class="catalog rule-page" data-rule={e.id.clone()} aria-labelledby="rule-title">
            <p class="crumbs"><Link<Route> to={Route::Rules}>{ m.all_rules }</Link<Route>>{ format!(" › {}", catalog::category_label_in(&e.category, lang)) }</p>
            <h2 id="rule-title">{ &e.title }</h2>
            <div class="summary">{ super::raw(&e.summary_html) }</div>
            <dl class="context rule-facts">
                <div class="fact"><dt>{ m.rule_id }</dt><dd><code>{ &e.id }</code></dd></div>
                <div class="fact"><dt>{ m.rule_category }</dt><dd>{ catalog::category_label_in(&e.category, lang) }</dd></div>
                <div class="fact"><dt>{ m.rule_severity }</dt><dd>{ &e.severity }</dd></div>
                <div class="fact"><dt>{ m.rule_applies_to }</dt><dd>{ if e.platform == "jvm" { m.any_jvm_software } else { "Flink" } }</dd></div>
                <div class="fact"><dt>{ m.rule_versions }</dt><dd>{ super::code_spans(&e.versions) }</dd></div>
                if let Some(v) = &page.since {
                    <div class="fact"><dt>{ m.rule_since }</dt><dd>{ v }</dd></div>
                }
                if !page.fixed_in.is_empty() {
                    <div class="fact"><dt>{ m.rule_fixed_in }</dt><dd>{ page.fixed_in.join(", ") }</dd></div>
                }
            </dl>
            <h3>{ m.what_it_looks_for }</h3>
            <ul class="conditions">{ for page.conditions.iter().map(|c| html! { <li>{ c }</li> }) }</ul>
            <Explanation explanation={page.explanation.clone()} open={true} />
            <section class="example" aria-labelledby="example-title">
                <h3 id="example-title">{ lang.example_title(&page.example_name) }</h3>
                if example_missing {
                    <p class="example-missing" role="note">{ m.example_unavailable }</p>
                } else {
                    <p class="example-status" data-lead={lead.clone().unwrap_or_default()}>{
                        match &lead {
                            Some(r) if *r == e.id => m.example_ok.to_owned(),
                            Some(r) => lang.example_other_rule(r),
                            None => m.example_none.to_owned(),
                        }
                    }</p>
                    <p><button type="button" class="primary" id="open-example" onclick={open}>{ m.open_example }</button></p>
                    <details class="example-text">
                        <summary>{ m.example_text }</summary>
                        <pre>{ &page.example }</pre>
                    </details>
                    if let Some(model) = model.as_ref() {
                        { for model.traces.iter().map(|t| html! { <TraceCard trace={t.clone()} /> }) }
                    }
                }
            </section>
        </article>
    }
}
