//! The notebooks' prediction cells ask only for quantities the room shows: each cell tagged
//! `prediction` declares a variable that the lib's one list
//! ([`contention::present::room::quantities`]) names for that notebook, its comment asks the
//! list's question, every quantity the list gives a cell has one, the cell after it sends
//! the guess to the room under the list's id, and
//! `notebooks/predictions.json` fills exactly those cells.

use std::collections::BTreeSet;
use std::path::Path;

use contention::present::room::quantities::QUANTITIES;

const NOTEBOOKS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../notebooks");

/// (notebook, variable, the cell's text) for every prediction cell of the notebooks.
fn prediction_cells() -> Vec<(String, String, String)> {
    let mut found = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(NOTEBOOKS).unwrap().map(|entry| entry.unwrap().path()).collect();
    paths.sort();
    for path in paths.iter().filter(|path| path.extension().is_some_and(|ext| ext == "ipynb")) {
        let notebook: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        for cell in notebook["cells"].as_array().unwrap() {
            let tags = cell["metadata"]["tags"].as_array().cloned().unwrap_or_default();
            if !tags.iter().any(|tag| tag == "prediction") {
                continue;
            }
            let text: String = cell["source"].as_array().unwrap().iter().map(|line| line.as_str().unwrap()).collect();
            let variable = text
                .split("let ")
                .nth(1)
                .and_then(|rest| rest.split_once(" = present::prediction::Prediction::new("))
                .map(|(variable, _)| variable.to_string())
                .unwrap_or_else(|| panic!("{name}: a prediction cell without `let VAR = Prediction::new(`: {text}"));
            found.push((name.clone(), variable, text));
        }
    }
    found
}

#[test]
fn every_prediction_cell_asks_a_quantity_the_room_shows() {
    let cells = prediction_cells();
    assert!(!cells.is_empty(), "the notebooks have prediction cells");
    for (notebook, variable, text) in &cells {
        let quantity = QUANTITIES
            .iter()
            .find(|quantity| quantity.cell == (notebook.as_str(), variable.as_str()))
            .unwrap_or_else(|| panic!("{notebook} asks `{variable}`, which no quantity of the room's list names"));
        assert!(quantity.effect().is_some(), "{}: the room shows no effect of that id", quantity.id);
        let question = quantity.question.to_lowercase();
        assert!(
            text.to_lowercase().contains(&question),
            "{notebook}'s `{variable}` asks the list's question: {question}"
        );
    }
    let asked: BTreeSet<(String, String)> = cells.iter().map(|(nb, var, _)| (nb.clone(), var.clone())).collect();
    for (notebook, variable) in QUANTITIES.iter().map(|quantity| quantity.cell) {
        assert!(asked.contains(&(notebook.to_string(), variable.to_string())), "{notebook} has no cell `{variable}`");
    }
}

#[test]
fn every_prediction_cell_is_followed_by_the_cell_that_sends_its_guess_to_the_room() {
    for quantity in QUANTITIES {
        let (notebook, variable) = quantity.cell;
        let path = Path::new(NOTEBOOKS).join(format!("{notebook}.ipynb"));
        let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let cells = json["cells"].as_array().unwrap();
        let at = cells.iter().position(|cell| cell["id"] == format!("prediction-{variable}")).unwrap();
        let next = cells.get(at + 1).unwrap_or_else(|| panic!("{notebook} ends at its prediction cell"));
        let text: String = next["source"].as_array().unwrap().iter().map(|line| line.as_str().unwrap()).collect();
        let sends = format!("{variable}.send_to_room(\"{}\")", quantity.id);
        assert!(text.contains(&sends), "{notebook}: the cell after `{variable}`'s prediction runs {sends}: {text}");
    }
}

#[test]
fn predictions_json_fills_the_cells_the_list_names() {
    let text = std::fs::read_to_string(Path::new(NOTEBOOKS).join("predictions.json")).unwrap();
    let filled: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut in_file = BTreeSet::new();
    for (notebook, values) in filled.as_object().unwrap() {
        for variable in values.as_object().unwrap().keys() {
            in_file.insert((notebook.trim_end_matches(".ipynb").to_string(), variable.clone()));
        }
    }
    let listed: BTreeSet<(String, String)> =
        QUANTITIES.iter().map(|q| q.cell).map(|(nb, var)| (nb.to_string(), var.to_string())).collect();
    assert_eq!(in_file, listed);
}

/// The quantities are the room's effects, in its order: the lib as the report builds it
/// (`present::room::quantities`' own test sees the experiments compiled only in tests too).
#[test]
fn the_quantities_are_the_rooms_effects_in_its_order() {
    let effects: Vec<&str> = contention::present::room::effects().iter().map(|effect| effect.id).collect();
    let listed: Vec<&str> = QUANTITIES.iter().map(|quantity| quantity.id).collect();
    assert_eq!(listed, effects, "the quantities are the room's effects, in its order");
}
