//! The layers run one way: between the top-level modules of lib/src and of report/src, and
//! between the files of any one folder, no import leads back where it started. The edges
//! are the `crate::` and `super::` paths in the code (comments and `#[cfg(test)]` parts
//! left out); a circle fails the test, naming one of its edges and where it is written.
//! The presentation is drawn in two: the kit (`kit`, and the charts' kit `chart`) stands
//! below the experiments, each of which presents itself from its own folder, and the
//! assembly (`present`) stands above the registry; an edge from the kit upwards, or from an
//! experiment to the registry or above, fails the test.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use common::rust_files;

/// Each `.rs` file under `src` that the code declares, by a `mod` line or from the
/// registry's list (a module declared only for tests, after `#[cfg(test)]`, is left out), by
/// module path (`["gc", "config"]`; the root `[]`).
fn modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut found = files(src);
    let from_registry = registry_declared(src);
    let declared = |parent: &PathBuf, module: &[String]| {
        let name = &module[module.len() - 1];
        from_registry.contains(module)
            || code(parent)
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .collect::<Vec<_>>()
                .windows(2)
                .any(|w| w == ["mod", name.as_str()])
    };
    loop {
        let test_only: Vec<Vec<String>> = found
            .keys()
            .filter(|module| !module.is_empty())
            .filter(|module| match found.get(&module[..module.len() - 1]) {
                Some(parent) => !declared(parent, module),
                None => true,
            })
            .cloned()
            .collect();
        if test_only.is_empty() {
            return found;
        }
        for module in test_only {
            found.remove(&module);
        }
    }
}

/// The modules the registry's list declares (`Variant => module::Type;` in `src/registry.rs`,
/// its test-only lines left out): each experiment's folder at the top.
fn registry_declared(src: &Path) -> BTreeSet<Vec<String>> {
    let registry = src.join("registry.rs");
    if !registry.is_file() {
        return BTreeSet::new();
    }
    let mut declared = BTreeSet::new();
    for line in code(&registry).lines().filter_map(|line| line.split_once("=>").map(|(_, named)| named.trim())) {
        let Some((module, _)) = line.split_once("::") else { continue };
        if module.chars().all(|c| c.is_alphanumeric() || c == '_') {
            declared.insert(vec![module.to_string()]);
        }
    }
    declared
}

/// Every `.rs` file under `src`, by module path.
fn files(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut found = BTreeMap::new();
    for path in rust_files(&[src.to_path_buf()]) {
        let relative = path.strip_prefix(src).unwrap().with_extension("");
        let mut module: Vec<String> =
            relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        if matches!(module.last().map(String::as_str), Some("mod" | "lib" | "main")) {
            module.pop();
        }
        found.insert(module, path);
    }
    found
}

/// The code of a file: before its first `#[cfg(test)]`, without `//` comments.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines().map(|line| line.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n")
}

/// The paths written after `crate::` or `super::` (`super::super::x` climbs twice).
fn paths(code: &str) -> Vec<(bool, Vec<String>)> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("::") {
        let before = &code[..at];
        let word_start = before.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
        let head = &before[word_start..];
        if head != "crate" && head != "super" {
            continue;
        }
        if before[..word_start].ends_with("::") {
            continue; // the inner `super` of `super::super::`, counted from the first
        }
        let mut segments = vec![head.to_string()];
        let mut rest = &code[at..];
        while let Some(next) = rest.strip_prefix("::") {
            let end = next.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(next.len());
            if end == 0 {
                break; // `crate::{a, b}`: a group is read by its members below
            }
            segments.push(next[..end].to_string());
            rest = &next[end..];
        }
        found.push((head == "crate", segments[usize::from(head == "crate")..].to_vec()));
        // `use crate::x::{a, b::c}`: each member is a path below `x`.
        if let Some(group) = rest.strip_prefix("::{") {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            let base = found.last().unwrap().clone();
            for member in group.split(',') {
                let member: Vec<String> =
                    member.trim().split("::").map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
                if let Some(first) =
                    member.first().filter(|first| first.chars().all(|c| c.is_alphanumeric() || c == '_'))
                {
                    let mut path = base.1.clone();
                    path.push(first.clone());
                    path.extend(member[1..].iter().cloned());
                    found.push((base.0, path));
                }
            }
        }
    }
    found
}

/// The module `segments` names from `module`: the longest prefix that is a module of the
/// crate. Each `super` climbs one level, from a file and from a folder's `mod.rs` alike.
fn resolve(
    modules: &BTreeMap<Vec<String>, PathBuf>,
    module: &[String],
    absolute: bool,
    segments: &[String],
) -> Option<Vec<String>> {
    let mut path: Vec<String> = if absolute { Vec::new() } else { module.to_vec() };
    let climbs = segments.iter().take_while(|s| *s == "super").count();
    for _ in 0..climbs {
        path.pop()?;
    }
    path.extend(segments[climbs..].iter().cloned());
    while !path.is_empty() {
        if modules.contains_key(&path) {
            return Some(path);
        }
        path.pop();
    }
    None
}

/// Every edge of the crate at `src`: (from module, to module, file it is written in).
fn edges(src: &Path) -> Vec<(Vec<String>, Vec<String>, PathBuf)> {
    let modules = modules(src);
    let mut edges = Vec::new();
    for (module, file) in &modules {
        for (absolute, segments) in paths(&code(file)) {
            if let Some(target) = resolve(&modules, module, absolute, &segments) {
                if &target != module {
                    edges.push((module.clone(), target, file.clone()));
                }
            }
        }
    }
    edges
}

/// The strongly connected sets of more than one node (Tarjan's algorithm).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(state: &mut State<'a>, node: &'a str) {
        let next = state.index.len();
        state.index.insert(node, next);
        state.low.insert(node, next);
        state.stack.push(node);
        for target in state.graph.get(node).into_iter().flatten() {
            let target = target.as_str();
            if !state.index.contains_key(target) {
                visit(state, target);
                let low = state.low[node].min(state.low[target]);
                state.low.insert(node, low);
            } else if state.stack.contains(&target) {
                let low = state.low[node].min(state.index[target]);
                state.low.insert(node, low);
            }
        }
        if state.low[node] == state.index[node] {
            let at = state.stack.iter().rposition(|&n| n == node).unwrap();
            let set: Vec<String> = state.stack.split_off(at).into_iter().map(String::from).collect();
            if set.len() > 1 {
                state.found.push(set);
            }
        }
    }
    let mut state = State { graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), found: Vec::new() };
    for node in graph.keys() {
        if !state.index.contains_key(node.as_str()) {
            visit(&mut state, node);
        }
    }
    state.found
}

/// The circles among the children of `folder` (`[]`: the crate's top level), each edge
/// between two children, with where one such edge is written.
fn circles_in(edges: &[(Vec<String>, Vec<String>, PathBuf)], folder: &[String]) -> Vec<(Vec<String>, String)> {
    let child = |module: &[String]| {
        (module.len() > folder.len() && module.starts_with(folder)).then(|| module[folder.len()].clone())
    };
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut written: BTreeMap<(String, String), String> = BTreeMap::new();
    for (from, to, file) in edges {
        if let (Some(a), Some(b)) = (child(from), child(to)) {
            if a != b {
                graph.entry(a.clone()).or_default().insert(b.clone());
                written.entry((a, b)).or_insert_with(|| file.display().to_string());
            }
        }
    }
    circles(&graph)
        .into_iter()
        .map(|set| {
            let edge = set
                .iter()
                .flat_map(|a| set.iter().map(move |b| (a.clone(), b.clone())))
                .find_map(|(a, b)| written.get(&(a.clone(), b.clone())).map(|file| format!("{a} -> {b} ({file})")))
                .unwrap_or_default();
            (set, edge)
        })
        .collect()
}

fn check(src: &Path) -> Vec<String> {
    let edges = edges(src);
    let folders: BTreeSet<Vec<String>> =
        modules(src).keys().filter(|m| !m.is_empty()).map(|m| m[..m.len() - 1].to_vec()).collect();
    let mut problems = Vec::new();
    for folder in folders {
        for (set, edge) in circles_in(&edges, &folder) {
            let place = if folder.is_empty() { "top level".to_string() } else { folder.join("::") };
            problems.push(format!(
                "{}: {place}: a circle of {}: {}; e.g. {edge}",
                src.display(),
                set.len(),
                set.join(", ")
            ));
        }
    }
    problems
}

#[test]
fn the_lib_and_the_report_import_one_way() {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let report = Path::new(env!("CARGO_MANIFEST_DIR")).join("../report/src");
    let problems: Vec<String> = [lib, report].iter().flat_map(|src| check(src)).collect();
    assert!(problems.is_empty(), "import circles:\n{}", problems.join("\n"));
}

/// The experiments: their modules, as the registry declares them.
fn experiments(src: &Path) -> BTreeSet<String> {
    registry_declared(src).into_iter().map(|module| module[0].clone()).collect()
}

/// Above the experiments: the registry, the runs it reads, the claims' reference, and the
/// presentation's assembly.
const ABOVE_THE_EXPERIMENTS: [&str; 4] = ["registry", "runs", "reference", "present"];

/// What the kit (`kit`, and the chart kit `chart`) may not import: the experiments, what
/// stands on one of them (`transfers` and `measured`, on the core-to-core latency), and all
/// above them.
fn above_the_kit(src: &Path) -> BTreeSet<String> {
    let mut above = experiments(src);
    above.extend(ABOVE_THE_EXPERIMENTS.map(String::from));
    above.extend(["transfers", "measured"].map(String::from));
    above
}

/// The edges from the top-level modules `from` to the top-level modules `above`, each as
/// "from -> to (file)".
fn reaching_up(src: &Path, from: &BTreeSet<String>, above: &BTreeSet<String>) -> Vec<String> {
    edges(src)
        .into_iter()
        .filter(|(module, to, _)| module.first().is_some_and(|top| from.contains(top)) && above.contains(&to[0]))
        .map(|(module, to, file)| format!("{} -> {} ({})", module.join("::"), to.join("::"), file.display()))
        .collect()
}

/// The kit's edges that reach above it.
fn kit_reaching_up(src: &Path) -> Vec<String> {
    reaching_up(src, &["kit", "chart"].map(String::from).into(), &above_the_kit(src))
}

/// An experiment can use the kit from its own folder only if the kit never reaches back up.
#[test]
fn the_kit_stands_below_the_experiments() {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    assert!(modules(&lib).contains_key(&vec!["kit".to_string()]), "the kit is read");
    let above = above_the_kit(&lib);
    assert!(above.contains("stride") && above.contains("present"), "{above:?}");
    let reaching = kit_reaching_up(&lib);
    assert!(reaching.is_empty(), "the kit imports from above it:\n{}", reaching.join("\n"));
}

/// An experiment imports nothing above it: not the registry that lists it, not the runs
/// read through that registry, not the assembly that shows it.
#[test]
fn the_experiments_stand_below_the_registry_and_the_assembly() {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let experiments = experiments(&lib);
    assert!(experiments.contains("stride") && experiments.contains("machine_check"), "{experiments:?}");
    let reaching = reaching_up(&lib, &experiments, &ABOVE_THE_EXPERIMENTS.map(String::from).into());
    assert!(reaching.is_empty(), "an experiment imports from above it:\n{}", reaching.join("\n"));
}

/// The experiments' modules are declared from the registry's list, not by `mod` lines: the
/// check must read them, and each one's presentation in its folder, all the same.
#[test]
fn the_check_reads_the_modules_the_registry_declares() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (lib, declared) = (modules(&src), registry_declared(&src));
    for module in ["machine_check", "c2c", "stride", "sharing", "counters", "gc", "pool", "locks", "refill"] {
        assert!(declared.contains(&vec![module.to_string()]), "the registry does not declare {module}");
        assert!(lib.contains_key(&vec![module.to_string()]), "{module} is not read");
        let presentation = vec![module.to_string(), "present".to_string()];
        assert!(lib.contains_key(&presentation), "{module}'s presentation is not read in its folder");
    }
    assert!(!lib.contains_key(&vec!["toy".to_string()]), "the test-only toy is left out");
}

#[test]
fn the_check_sees_a_circle_and_names_its_edge() {
    let folder = std::env::temp_dir().join(format!("layers-{}", std::process::id()));
    std::fs::create_dir_all(folder.join("b")).unwrap();
    std::fs::write(folder.join("lib.rs"), "mod a;\nmod b;\n").unwrap();
    std::fs::write(folder.join("a.rs"), "use crate::b::inner::Thing; // crate::c in a comment\n").unwrap();
    std::fs::write(folder.join("b/mod.rs"), "mod inner;\nmod other;\n").unwrap();
    std::fs::write(folder.join("b/inner.rs"), "use super::other::X;\npub struct Thing;\n").unwrap();
    std::fs::write(folder.join("b/other.rs"), "use crate::{a::Y, b::inner};\npub struct X;\n").unwrap();
    let problems = check(&folder);
    std::fs::create_dir_all(folder.join("kit")).unwrap();
    std::fs::write(folder.join("lib.rs"), "mod kit;\nmod present;\n").unwrap();
    std::fs::write(folder.join("kit/mod.rs"), "use crate::present::Section;\n").unwrap();
    std::fs::write(folder.join("present.rs"), "pub struct Section;\n").unwrap();
    let reaching = kit_reaching_up(&folder);
    std::fs::write(folder.join("kit/mod.rs"), "pub struct Effect;\n").unwrap();
    std::fs::write(folder.join("lib.rs"), "mod kit;\nmod present;\nmod stride;\n").unwrap();
    std::fs::write(folder.join("stride.rs"), "use crate::kit::Effect;\nuse crate::present::Section;\n").unwrap();
    let stride = ["stride"].map(String::from).into();
    let experiment_up = reaching_up(&folder, &stride, &ABOVE_THE_EXPERIMENTS.map(String::from).into());
    std::fs::remove_dir_all(&folder).unwrap();
    assert_eq!(experiment_up.len(), 1, "{experiment_up:?}");
    assert!(experiment_up[0].starts_with("stride -> present ("), "{experiment_up:?}");
    assert_eq!(reaching.len(), 1, "{reaching:?}");
    assert!(reaching[0].starts_with("kit -> present ("), "{reaching:?}");
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("top level: a circle of 2: a, b; e.g. a -> b"), "{problems:?}");
    assert!(problems[1].contains("b: a circle of 2: inner, other; e.g. inner -> other"), "{problems:?}");
}
