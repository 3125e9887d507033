use super::*;
use crate::stats::Ratio;

fn ratio(low: f64, high: f64) -> Ratio {
    Ratio { value: (low + high) / 2.0, low, high }
}

#[test]
fn an_effect_is_reproduced_only_where_its_interval_reaches_the_figure() {
    let article = Target::point(13.7);
    assert_eq!(Judgement::effect(&ratio(10.0, 15.0), article).status, Status::Reproduced);
    let short = Judgement::effect(&ratio(1.05, 4.05), article);
    assert_eq!(short.to_string(), "same direction, smaller: short of the article's 13.70x");
    assert_eq!(Judgement::effect(&ratio(20.0, 30.0), article).status, Status::Larger);
    assert_eq!(Judgement::effect(&ratio(0.5, 0.9), article).status, Status::Differs);
    assert_eq!(Judgement::effect(&ratio(0.9, 1.3), article).status, Status::NotBeyondNoise);
    assert_eq!(Judgement::effect(&ratio(1.2, f64::INFINITY), article).status, Status::NotBeyondNoise);
    let range = Target::range(3.0, 7.0);
    assert_eq!(Judgement::effect(&ratio(4.34, 8.2), range).status, Status::Reproduced, "overlaps 3-7");
    assert_eq!(
        Judgement::effect(&ratio(8.0, 15.2), range).to_string(),
        "same direction, larger: past the article's 3.00x–7.00x"
    );
}

#[test]
fn a_ratio_wider_than_the_bound_is_never_reproduced_nor_differs() {
    let stamped = Judgement::effect(&ratio(1.85, 15.0), Target::range(3.0, 7.0));
    assert_eq!(
        stamped.to_string(),
        "too noisy to tell: the interval spans 8.11x (high over low), wider than the 2.00x a ratio may"
    );
    assert_eq!(Judgement::effect(&ratio(0.1, 0.5), Target::point(2.0)).status, Status::TooNoisy);
    assert_eq!(Judgement::effect(&ratio(1.5, 3.0), Target::point(2.0)).status, Status::Reproduced, "2x is allowed");
    assert_eq!(Judgement::effect(&ratio(0.0, 0.5), Target::point(2.0)).status, Status::TooNoisy, "no low end");
}

#[test]
fn a_figure_is_held_to_the_digits_the_article_printed() {
    assert_eq!(half_unit("1.7"), Some(0.05));
    assert_eq!(half_unit("13.70"), Some(0.005));
    assert_eq!(half_unit("64"), Some(0.5));
    assert_eq!(half_unit("1e3"), None);
    assert_eq!(half_unit("ms"), None);
    // C9: 1.74 ms (1.73-1.80) against the article's 1.7 ms, which it printed to two digits.
    let c9 = Target::point(1.7).printed_to(half_unit("1.7").unwrap());
    assert_eq!(Judgement::figure(1.73, 1.80, c9).status, Status::Reproduced);
    assert_eq!(Judgement::figure(1.76, 1.80, c9).status, Status::Differs, "past 1.75");
    assert_eq!(Judgement::figure(1.73, 1.80, Target::point(1.7)).status, Status::Differs, "a computed figure: exact");
    let a1 = Target::point(13.7).printed_to(0.05);
    assert_eq!(Judgement::effect(&ratio(8.0, 13.66), a1).status, Status::Reproduced);
}

#[test]
fn a_figure_is_judged_against_the_range_and_no_change_against_its_bound() {
    let range = Target::range(80.0, 120.0);
    assert_eq!(Judgement::figure(85.0, 95.0, range).status, Status::Reproduced);
    assert_eq!(Judgement::figure(10.0, 20.0, range), Judgement::new(Status::Differs, "below the article's"));
    assert_eq!(Judgement::figure(130.0, 140.0, range).why, "above the article's");
    assert_eq!(Judgement::figure(400.0, 500.0, Target::range(300.0, f64::INFINITY)).status, Status::Reproduced);
    assert_eq!(Judgement::no_change(&ratio(0.95, 1.08), 0.1).status, Status::Reproduced);
    assert_eq!(Judgement::no_change(&ratio(1.2, 1.5), 0.1).status, Status::Differs);
    assert_eq!(Judgement::no_change(&ratio(0.78, 2.31), 0.1).status, Status::NotBeyondNoise, "wide is not none");
}

#[test]
fn fewer_cpus_than_the_setting_need_cores_whatever_the_interval() {
    let reached = Judgement::new(Status::Reproduced, "");
    assert_eq!(
        reached.clone().at_setting(8, 2),
        Judgement::new(Status::NeedsCores(8), "reproduced, on 2 CPUs against the article's 8 threads")
    );
    assert_eq!(reached.clone().at_setting(8, 8), reached);
    let noise = Judgement::effect(&ratio(0.9, 1.2), Target::point(1.81)).at_setting(8, 2);
    assert_eq!(noise.status, Status::NeedsCores(8));
    let smaller = Judgement::effect(&ratio(1.05, 4.05), Target::point(13.7)).at_setting(8, 2);
    assert_eq!(
        smaller.to_string(),
        "needs 8 cores: same direction, smaller: short of the article's 13.70x, on 2 CPUs against the article's 8 \
         threads"
    );
    let other_way = Judgement::effect(&ratio(0.58, 0.88), Target::point(8.51)).at_setting(48, 2);
    assert_eq!(other_way.status, Status::NeedsCores(48), "the CPU count decides, not the interval");
    assert_eq!(Judgement::new(Status::SetUp, "an input").at_setting(8, 2).status, Status::SetUp);
    assert_eq!(Judgement::new(Status::NotInRun, "").at_setting(8, 2).status, Status::NotInRun);
}

#[test]
fn a_status_the_resamples_give_less_than_the_bound_is_unsettled() {
    let mut resampled = vec![Status::Reproduced; 110];
    resampled.extend([Status::Smaller; 90]);
    let split = settledness(Status::Reproduced, &resampled);
    assert!((split.share - 0.55).abs() < 1e-12 && !split.settled());
    assert_eq!(
        split.judge(Judgement::new(Status::Reproduced, "")).to_string(),
        "unsettled: reproduced 55%, same direction, smaller 45%"
    );
    let mostly = settledness(Status::Smaller, &[[Status::Smaller; 170].as_slice(), &[Status::Reproduced; 30]].concat());
    assert!(mostly.settled(), "85% holds");
    assert_eq!(mostly.judge(Judgement::new(Status::Smaller, "short")).why, "short");
    assert_eq!(settledness(Status::Differs, &resampled).share, 0.0);
}

#[test]
fn the_tally_counts_each_kind_and_reproduced_only_once() {
    let statuses = [
        Status::Reproduced,
        Status::Smaller,
        Status::Smaller,
        Status::Differs,
        Status::NeedsCores(8),
        Status::NeedsCores(48),
        Status::Unsettled,
        Status::SetUp,
    ];
    assert_eq!(
        tally(&statuses),
        "1 reproduced, 2 same direction, smaller, 1 differ, 1 unsettled, 2 need more cores, 1 set up, not measured"
    );
    assert_eq!(Status::NeedsCores(16).label(), "needs 16 cores");
    let legend = legend().to_lowercase();
    assert!(Status::ALL
        .iter()
        .all(|status| legend.contains(&status.kind().replace("needs more cores", "needs n cores"))));
    assert!(legend.contains("more than 2x") && legend.contains("fewer than 80%") && legend.contains("200 times"));
}

#[test]
fn each_kind_of_status_has_its_own_letter() {
    let letters: Vec<char> = Status::ALL.iter().map(|status| status.letter()).collect();
    for (index, letter) in letters.iter().enumerate() {
        assert!(!letters[..index].contains(letter), "{letter} is used twice: {letters:?}");
    }
    assert_eq!(Status::NeedsCores(8).letter(), Status::NeedsCores(48).letter(), "the letter names the kind");
}
