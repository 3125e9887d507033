//! The real work of one operation: an ECDSA P-256 signature (the article's benchmark) or a
//! cheaper chain of SipHash rounds. Either turns a 32-byte message into 64 output bytes
//! that can be checked after the trial.

use std::hash::{DefaultHasher, Hasher};

#[cfg(feature = "ecdsa")]
use p256::ecdsa::signature::{Signer as _, Verifier as _};

use super::config::Workload;
use crate::error::ConfigError;

/// Chained hash rounds per operation: a few microseconds, so allocation and collection
/// weigh more than beside a signature.
pub const HASH_ROUNDS: u64 = 128;

/// A workload ready to run (the signing key is derived once per trial).
#[derive(Debug, Clone)]
pub enum Work {
    Hash,
    #[cfg(feature = "ecdsa")]
    Ecdsa(Box<p256::ecdsa::SigningKey>),
}

/// The signing key's scalar: fixed so every run signs the same way (RFC 6979 nonces).
#[cfg(feature = "ecdsa")]
const SIGNING_SCALAR: [u8; 32] = *b"contention-lab gc sweep key #001";

impl Work {
    pub fn new(workload: Workload) -> Result<Self, ConfigError> {
        match workload {
            Workload::Hash => Ok(Work::Hash),
            #[cfg(feature = "ecdsa")]
            Workload::Ecdsa => p256::ecdsa::SigningKey::from_bytes(&SIGNING_SCALAR.into())
                .map(|key| Work::Ecdsa(Box::new(key)))
                .map_err(|_| ConfigError::new("workload", "ecdsa", "a valid P-256 signing key")),
            #[cfg(not(feature = "ecdsa"))]
            Workload::Ecdsa => Err(ConfigError::new(
                "workload",
                "ecdsa",
                "hash in this build (ECDSA needs the contention crate's `ecdsa` feature, which the report enables)",
            )),
        }
    }

    /// Does one operation's work on `message`.
    pub fn perform(&self, message: &[u8; 32]) -> [u8; 64] {
        match self {
            Work::Hash => hash_chain(message),
            #[cfg(feature = "ecdsa")]
            Work::Ecdsa(key) => {
                let signature: p256::ecdsa::Signature = key.sign(message);
                signature.to_bytes().into()
            }
        }
    }

    /// Whether `output` is what [`perform`](Self::perform) must give for `message`.
    pub fn check(&self, message: &[u8; 32], output: &[u8; 64]) -> bool {
        match self {
            Work::Hash => hash_chain(message) == *output,
            #[cfg(feature = "ecdsa")]
            Work::Ecdsa(key) => p256::ecdsa::Signature::from_slice(output)
                .is_ok_and(|signature| key.verifying_key().verify(message, &signature).is_ok()),
        }
    }
}

/// Eight SipHash-1-3 chains of [`HASH_ROUNDS`] rounds, each round hashing the message with
/// the previous round's value.
fn hash_chain(message: &[u8; 32]) -> [u8; 64] {
    let mut output = [0u8; 64];
    for (lane, chunk) in output.chunks_exact_mut(8).enumerate() {
        let mut value = lane as u64;
        for round in 0..HASH_ROUNDS / 8 {
            let mut hasher = DefaultHasher::new();
            hasher.write(message);
            hasher.write_u64(value ^ round);
            value = hasher.finish();
        }
        chunk.copy_from_slice(&value.to_le_bytes());
    }
    output
}

/// The message of a worker's `op`-th operation: distinct for every (worker, operation).
pub fn message(worker: usize, op: u64) -> [u8; 32] {
    let mut message = [0u8; 32];
    message[..8].copy_from_slice(&(worker as u64).to_le_bytes());
    message[8..16].copy_from_slice(&op.to_le_bytes());
    message[16..].copy_from_slice(b"contention gc op");
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_output_checks_and_depends_on_the_message() {
        let work = Work::new(Workload::Hash).unwrap();
        let output = work.perform(&message(0, 1));
        assert!(work.check(&message(0, 1), &output));
        assert!(!work.check(&message(0, 2), &output));
        assert_ne!(output, work.perform(&message(1, 1)));
    }

    #[cfg(feature = "ecdsa")]
    #[test]
    fn signatures_verify() {
        let work = Work::new(Workload::Ecdsa).unwrap();
        let signature = work.perform(&message(3, 9));
        assert!(work.check(&message(3, 9), &signature));
        assert!(!work.check(&message(3, 10), &signature));
    }

    #[cfg(not(feature = "ecdsa"))]
    #[test]
    fn ecdsa_without_the_feature_is_a_config_error() {
        assert_eq!(Work::new(Workload::Ecdsa).unwrap_err().field, "workload");
    }
}
