//! Log scales: the one place where an axis's ends and marks are computed, for the
//! projector's slides (positions as percentages) and the charts (plotters' log axes).
//!
//! Every function here returns, for any input (subnormals, values near `f64::MAX`, NaN,
//! infinities), finite, positive, normal ends at most [`MAX_DECADES`] apart, and does a
//! bounded amount of work: marks are counted over whole decades (integers), never found by
//! multiplying a float until it passes the top (which never ends once the top is infinite or
//! a decade underflows to 0).

use std::ops::Range;

/// The lowest value a scale reaches: a row holds nothing outside 1e-12 to 1e15
/// ([`crate::limits::saved`]), and ratios of two such values stay inside too.
pub const FLOOR: f64 = 1e-30;
/// The highest value a scale reaches.
pub const CEILING: f64 = 1e30;
/// The most decades one scale spans: a scale of wider data keeps its top [`MAX_DECADES`] and
/// places what lies below at its bottom edge. Twelve are more than any figure here needs (the
/// article's times span two).
pub const MAX_DECADES: i32 = 12;

/// `value` within [`FLOOR`] and [`CEILING`] (NaN: 1).
pub fn clamped(value: f64) -> f64 {
    if value.is_nan() {
        1.0
    } else {
        value.clamp(FLOOR, CEILING)
    }
}

/// `low..high` made safe for a log scale: both ends within [`FLOOR`] and [`CEILING`], `low`
/// below `high`, at most [`MAX_DECADES`] apart (the top kept).
pub fn span(low: f64, high: f64) -> Range<f64> {
    let high = clamped(high).max(FLOOR * 10.0);
    let low = clamped(low);
    let low = if low >= high { high / 10.0 } else { low.max(high / decade(MAX_DECADES)) };
    low..high
}

/// `low..high` (each within [`FLOOR`] and [`CEILING`]) widened to whole powers of ten, so a log axis has labelled ticks however narrow
/// the data (plotters labels a log axis only at and between powers of ten).
pub fn decade_span(low: f64, high: f64) -> Range<f64> {
    // Within FLOOR and CEILING, so the powers lie within ±30 and the casts are exact.
    let first = clamped(low).log10().floor() as i32;
    let last = (clamped(high).log10().ceil() as i32).max(first + 1);
    decade(first.max(last - MAX_DECADES))..decade(last)
}

/// The decades (powers of ten) below `low` and above `high`, both ends as [`span`] makes them.
fn decades(low: f64, high: f64) -> (i32, i32) {
    let Range { start, end } = span(low, high);
    // Within FLOOR and CEILING, so the powers lie within ±30 and the casts are exact.
    (start.log10().floor() as i32, end.log10().ceil() as i32)
}

/// The marks at 1, 2 and 5 times each power of ten within [`span`]`(low, high)`, lowest
/// first; at most `3 * (MAX_DECADES + 2)`.
pub fn marks_125(low: f64, high: f64) -> Vec<f64> {
    let Range { start, end } = span(low, high);
    let (first, last) = decades(start, end);
    (first..=last)
        .flat_map(|power| [1.0, 2.0, 5.0].map(|step| step * decade(power)))
        .filter(|mark| (start..=end).contains(mark))
        .collect()
}

/// A log scale from `low` to `high` that places values as shares of its length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogScale {
    low: f64,
    high: f64,
}

impl LogScale {
    /// A scale from `low` to `high`, made safe by [`span`].
    pub fn new(low: f64, high: f64) -> Self {
        let Range { start, end } = span(low, high);
        Self { low: start, high: end }
    }

    /// A scale holding every positive finite value of `values`, widened by the factor
    /// `margin` on each side and at least `min_ratio` from end to end; `None` when no value
    /// is positive and finite.
    pub fn holding(values: impl IntoIterator<Item = f64>, margin: f64, min_ratio: f64) -> Option<Self> {
        let (low, high) = values
            .into_iter()
            .filter(|value| value.is_finite() && *value > 0.0)
            .fold((f64::INFINITY, 0.0f64), |(low, high), value| (low.min(value), high.max(value)));
        (high > 0.0).then(|| Self::new(low / margin, (high * margin).max(low * min_ratio)))
    }

    pub fn low(&self) -> f64 {
        self.low
    }

    pub fn high(&self) -> f64 {
        self.high
    }

    pub fn range(&self) -> Range<f64> {
        self.low..self.high
    }

    /// Where `value` lies, from 0 (the low end) to 100 (the high end); a value outside the
    /// scale (or NaN) at the nearer end (NaN: the low one).
    pub fn percent(&self, value: f64) -> f64 {
        let value = if value.is_nan() { self.low } else { value.clamp(self.low, self.high) };
        (value.ln() - self.low.ln()) / (self.high.ln() - self.low.ln()) * 100.0
    }

    /// The 1-2-5 marks inside the scale; where they are more than `most`, only its powers of
    /// ten (at most [`MAX_DECADES`] + 1).
    pub fn marks(&self, most: usize) -> Vec<f64> {
        let marks = marks_125(self.low, self.high);
        if marks.len() <= most {
            return marks;
        }
        let (first, last) = decades(self.low, self.high);
        let inside = self.low..=self.high;
        (first..=last).map(decade).filter(|mark| inside.contains(mark)).collect()
    }
}

/// 10 to the `power`, the nearest double to it: `powi` of a negative power is not correctly
/// rounded everywhere (Windows' runtime gives 0.0010000000000000002 for 1e-3), so a negative
/// power divides by the exact positive one.
pub fn decade(power: i32) -> f64 {
    match power >= 0 {
        true => 10f64.powi(power),
        false => 1.0 / 10f64.powi(-power),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::time::{Duration, Instant};

    /// Finite values a scale may be fed: subnormals, values near `f64::MAX`, and in between.
    fn extreme() -> impl Strategy<Value = f64> {
        prop_oneof![
            Just(5e-324),
            Just(f64::MIN_POSITIVE),
            Just(f64::MAX),
            Just(1.5e308),
            Just(0.0),
            Just(-1.0),
            (1u64..(1 << 52)).prop_map(f64::from_bits),
            ((f64::MAX / 2.0)..f64::MAX),
            any::<f64>(),
            (1e-3..1e3f64),
        ]
    }

    fn normal_and_bounded(range: &Range<f64>) -> bool {
        range.start.is_normal()
            && range.end.is_normal()
            && range.start < range.end
            && (range.end / range.start).log10() <= f64::from(MAX_DECADES) + 1e-9
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn every_scale_is_bounded_and_quick_for_any_values(values in prop::collection::vec(extreme(), 0..8)) {
            let started = Instant::now();
            let scale = LogScale::holding(values.iter().copied(), 1.25, 1.6).unwrap_or(LogScale::new(0.5, 2.0));
            prop_assert!(normal_and_bounded(&scale.range()), "{scale:?}");
            for value in &values {
                let at = scale.percent(*value);
                prop_assert!((0.0..=100.0).contains(&at), "{value} at {at}");
            }
            let marks = scale.marks(8);
            prop_assert!(marks.len() <= (MAX_DECADES + 1) as usize, "{marks:?}");
            prop_assert!(marks.iter().all(|mark| (scale.low()..=scale.high()).contains(mark)));
            let (low, high) = (values.first().copied().unwrap_or(1.0), values.last().copied().unwrap_or(1.0));
            prop_assert!(normal_and_bounded(&span(low, high)));
            prop_assert!(normal_and_bounded(&decade_span(low, high)));
            prop_assert!(marks_125(low, high).len() <= 3 * (MAX_DECADES as usize + 2));
            prop_assert!(started.elapsed() < Duration::from_millis(100), "{:?}", started.elapsed());
        }
    }

    #[test]
    fn a_scale_keeps_plain_values_as_they_are() {
        assert_eq!(span(2.0, 300.0), 2.0..300.0);
        assert_eq!(decade_span(120.0, 750.0), 100.0..1000.0);
        assert_eq!(decade_span(2.4, 100.0), 1.0..100.0);
        assert_eq!(decade_span(0.9, 3000.0), 0.1..10000.0);
        assert_eq!(decade_span(10.0, 10.0), 10.0..100.0);
        assert_eq!(marks_125(0.8, 30.0), [1.0, 2.0, 5.0, 10.0, 20.0]);
        let scale = LogScale::new(1.0, 100.0);
        assert_eq!((scale.percent(10.0), scale.percent(0.1), scale.percent(f64::MAX)), (50.0, 0.0, 100.0));
        assert_eq!(LogScale::new(1e-3, 1e3).marks(8), [1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0, 1e3]);
        assert_eq!(LogScale::holding([f64::NAN, -1.0, 0.0], 1.25, 1.6), None);
    }

    #[test]
    fn the_values_that_hung_the_projector_give_a_scale() {
        for value in [1.797_693_134_862_315_7e308, 1.5e308, 5e-324] {
            let scale = LogScale::holding([value, 3.87], 1.25, 1.6).unwrap();
            assert!(normal_and_bounded(&scale.range()), "{value}: {scale:?}");
            assert!(!scale.marks(8).is_empty(), "{value}: {scale:?}");
        }
    }
}
