//! The experiment registry: every experiment of the lab, once, in the report's order. Each
//! line of [`experiments`] names a variant of [`Experiment`] (the key runs, sections and the
//! command line use), the experiment's module (its folder, declared from that line) and the
//! unit type that measures and presents it ([`crate::experiment::Measure`] and
//! [`crate::kit::Present`]). Code that works for any experiment is written once, generic
//! over that type, and reached through [`Experiment::visit`]; nothing else lists
//! experiments. The registry sits above the experiments and below the run reader and the
//! assembly: an experiment never imports it.

use serde::Serialize;

use crate::experiment::RealRuntime;
use crate::kit::Present;

/// Code generic over an experiment's type (measuring and presenting), run for one
/// [`Experiment`] by [`Experiment::visit`].
pub trait Visitor {
    type Output;
    fn visit<K: Present>(self) -> Self::Output;
}

/// The list of experiments, once, in the report's order, expanded where each part belongs:
/// `experiments!(modules)` at the crate's top declares each experiment's module, and
/// `experiments!(registry)` here the enum, [`Experiment::ALL`] and [`Experiment::visit`]. A
/// line names the experiment's variant, its module and its type.
macro_rules! experiments {
    ($part:ident) => {
        $crate::registry::experiments! { @$part
            Machine => machine_check::MachineCheck;
            C2c => c2c::CoreToCore;
            Stride => stride::StrideSweep;
            Sharing => sharing::FourWay;
            Counters => counters::CounterLayouts;
            Gc => gc::GcSweep;
            Pool => pool::PoolSizing;
            Locks => locks::LockCases;
            Refill => refill::CacheRefill;
            #[cfg(test)]
            Toy => toy::Toy;
        }
    };
    (@modules $($(#[$only:meta])* $variant:ident => $module:ident::$kind:ident);+ $(;)?) => {
        $($(#[$only])* pub mod $module;)+
    };
    (@registry $($(#[$only:meta])* $variant:ident => $module:ident::$kind:ident);+ $(;)?) => {
        /// An experiment of the lab; [`Experiment::ALL`] is the report's order.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Experiment {
            $($(#[$only])* $variant),+
        }

        impl Experiment {
            /// Every experiment, in the report's order.
            pub const ALL: &'static [Experiment] = &[$($(#[$only])* Experiment::$variant),+];

            /// Runs `visitor` with this experiment's type.
            pub fn visit<V: Visitor>(self, visitor: V) -> V::Output {
                match self {
                    $($(#[$only])* Experiment::$variant => visitor.visit::<crate::$module::$kind>()),+
                }
            }
        }
    };
}
pub(crate) use experiments;

experiments!(registry);

/// An experiment's constants, read once through its type.
#[derive(Debug, Clone, Copy)]
struct Constants {
    name: &'static str,
    about: &'static str,
    real_runtime: Option<RealRuntime>,
    may_have_no_rows: bool,
    clock_paced: bool,
}

struct ReadConstants;

impl Visitor for ReadConstants {
    type Output = Constants;
    fn visit<K: Present>(self) -> Constants {
        Constants {
            name: K::NAME,
            about: K::ABOUT,
            real_runtime: K::REAL_RUNTIME,
            may_have_no_rows: K::MAY_HAVE_NO_ROWS,
            clock_paced: K::CLOCK_PACED,
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

    /// Where its real runtime's rows sit beside the model's, when it has one.
    pub fn real_runtime(self) -> Option<RealRuntime> {
        self.constants().real_runtime
    }

    /// Whether a complete run of it may hold no rows (`c2c` on one CPU: no pair).
    pub fn may_have_no_rows(self) -> bool {
        self.constants().may_have_no_rows
    }

    /// Whether its trials last set wall-clock times, so a faster machine does not finish sooner.
    pub fn clock_paced(self) -> bool {
        self.constants().clock_paced
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
