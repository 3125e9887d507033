//! The experiment registry: every experiment of the lab, once, in the report's order. Each
//! line names a variant of [`Experiment`] (the key runs, sections and the command line use)
//! and the unit type that measures it ([`crate::experiment::Measure`], in the experiment's
//! module) and presents it ([`crate::present::Present`], in its `present` module). Code
//! that works for any experiment is written once, generic over that type, and reached
//! through [`Experiment::visit`]; nothing else lists experiments.

use serde::Serialize;

use crate::experiment::{Beside, Measure};
use crate::present::Present;

/// Code generic over an experiment's type, run for one [`Experiment`] by [`Experiment::visit`].
pub trait Visitor {
    type Output;
    fn visit<K: Present>(self) -> Self::Output;
}

/// The same for code below the presentation layer (the run reader), which needs only the
/// experiment's measuring side: [`Experiment::visit_measure`].
pub trait MeasureVisitor {
    type Output;
    fn visit<K: Measure>(self) -> Self::Output;
}

macro_rules! registry {
    ($($variant:ident => $kind:ty),+ $(,)?) => {
        /// An experiment of the lab; [`Experiment::ALL`] is the report's order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Experiment {
            $($variant),+
        }

        impl Experiment {
            /// Every experiment, in the report's order.
            pub const ALL: &'static [Experiment] = &[$(Experiment::$variant),+];

            /// Runs `visitor` with this experiment's type.
            pub fn visit<V: Visitor>(self, visitor: V) -> V::Output {
                match self {
                    $(Experiment::$variant => visitor.visit::<$kind>()),+
                }
            }

            /// Runs `visitor` with this experiment's measuring type.
            pub fn visit_measure<V: MeasureVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $(Experiment::$variant => visitor.visit::<$kind>()),+
                }
            }
        }
    };
}

registry! {
    Machine => crate::fitness::MachineCheck,
    C2c => crate::c2c::CoreToCore,
    Stride => crate::stride::StrideSweep,
    Sharing => crate::sharing::FourWay,
    Counters => crate::counters::CounterLayouts,
    Gc => crate::gc::GcSweep,
    Pool => crate::pool::PoolSizing,
    Locks => crate::locks::LockCases,
    Refill => crate::refill::CacheRefill,
}

/// An experiment's constants, read once through its type.
#[derive(Debug, Clone, Copy)]
struct Constants {
    name: &'static str,
    about: &'static str,
    title: &'static str,
    beside: Option<Beside>,
    may_have_no_rows: bool,
}

struct ReadConstants;

impl Visitor for ReadConstants {
    type Output = Constants;
    fn visit<K: Present>(self) -> Constants {
        Constants {
            name: K::NAME,
            about: K::ABOUT,
            title: K::TITLE,
            beside: K::BESIDE,
            may_have_no_rows: K::MAY_HAVE_NO_ROWS,
        }
    }
}

impl Experiment {
    fn constants(self) -> Constants {
        self.visit(ReadConstants)
    }

    /// Its name on the command line and in run folders.
    pub fn name(self) -> &'static str {
        self.constants().name
    }

    /// One line for `--help`.
    pub fn about(self) -> &'static str {
        self.constants().about
    }

    /// Its section's heading.
    pub fn title(self) -> &'static str {
        self.constants().title
    }

    /// Where its real runtime's rows sit beside the model's, when it has one.
    pub fn beside(self) -> Option<Beside> {
        self.constants().beside
    }

    /// Whether a complete run of it may hold no rows (`c2c` on one CPU: no pair).
    pub fn may_have_no_rows(self) -> bool {
        self.constants().may_have_no_rows
    }

    /// The experiment named `name` (as on the command line), if there is one.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|experiment| experiment.name() == name)
    }

    /// Every experiment's name, for messages ("known: machine, c2c, ...").
    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|experiment| experiment.name()).collect()
    }
}

/// Written as its name, as in run folders.
impl Serialize for Experiment {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_read_back() {
        let names = Experiment::names();
        for (index, name) in names.iter().enumerate() {
            assert!(!names[..index].contains(name), "{name} twice");
            assert_eq!(Experiment::from_name(name).map(Experiment::name), Some(*name));
        }
        assert_eq!(Experiment::from_name("nonsense"), None);
    }
}
