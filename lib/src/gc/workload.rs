//! The real work of one operation: an ECDSA P-256 signature of the article's message (Go's
//! `BenchmarkSignP256` signs `"testing"`) through `ring`, at about Go's speed, or a cheaper
//! chain of SipHash rounds. Either gives 64 output bytes that are checked after the trial.

use std::hash::{DefaultHasher, Hasher};

use super::types::Workload;
use crate::error::ConfigError;

/// Chained hash rounds per operation: a few microseconds, so allocation and collection
/// weigh more than beside a signature.
pub const HASH_ROUNDS: u64 = 128;

/// What Go's `crypto/ecdsa` benchmark signs, and so what every signature here signs.
pub const ARTICLE_MESSAGE: &[u8] = b"testing";

/// A workload ready to run (the key pair is generated once per run).
#[derive(Debug)]
pub enum Work {
    Hash,
    #[cfg(feature = "ecdsa")]
    Ecdsa(Box<Signer>),
}

/// A P-256 key pair and the system's random source its nonces come from (as Go's `Sign`
/// reads `crypto/rand`).
#[cfg(feature = "ecdsa")]
#[derive(Debug)]
pub struct Signer {
    key: ring::signature::EcdsaKeyPair,
    random: ring::rand::SystemRandom,
}

#[cfg(feature = "ecdsa")]
impl Signer {
    fn new() -> Result<Self, ConfigError> {
        use ring::signature::{EcdsaKeyPair, ECDSA_P256_SHA256_FIXED_SIGNING as ALGORITHM};
        let refused = |_| ConfigError::new("workload", "ecdsa", "a P-256 key from the system's random source");
        let random = ring::rand::SystemRandom::new();
        let document = EcdsaKeyPair::generate_pkcs8(&ALGORITHM, &random).map_err(refused)?;
        let key = EcdsaKeyPair::from_pkcs8(&ALGORITHM, document.as_ref(), &random)
            .map_err(|_| ConfigError::new("workload", "ecdsa", "a P-256 key ring accepts"))?;
        Ok(Self { key, random })
    }

    fn sign(&self) -> [u8; 64] {
        let mut output = [0u8; 64];
        // ring only fails to sign when the system's random source fails; the zero output
        // then fails the check after the trial, voiding it rather than hiding the failure.
        if let Ok(signature) = self.key.sign(&self.random, ARTICLE_MESSAGE) {
            output.copy_from_slice(signature.as_ref());
        }
        output
    }

    fn verifies(&self, output: &[u8; 64]) -> bool {
        use ring::signature::{KeyPair as _, UnparsedPublicKey, ECDSA_P256_SHA256_FIXED};
        UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, self.key.public_key().as_ref())
            .verify(ARTICLE_MESSAGE, output)
            .is_ok()
    }
}

impl Work {
    pub fn new(workload: Workload) -> Result<Self, ConfigError> {
        match workload {
            Workload::Hash => Ok(Work::Hash),
            #[cfg(feature = "ecdsa")]
            Workload::Ecdsa => Ok(Work::Ecdsa(Box::new(Signer::new()?))),
            #[cfg(not(feature = "ecdsa"))]
            Workload::Ecdsa => Err(ConfigError::new(
                "workload",
                "ecdsa",
                "hash in this build (ECDSA needs the contention crate's `ecdsa` feature, which the report enables)",
            )),
        }
    }

    /// Does one operation's work. `message` feeds the hash chain; a signature always signs
    /// [`ARTICLE_MESSAGE`].
    pub fn perform(&self, message: &[u8; 32]) -> [u8; 64] {
        match self {
            Work::Hash => hash_chain(message),
            #[cfg(feature = "ecdsa")]
            Work::Ecdsa(signer) => signer.sign(),
        }
    }

    /// Whether `output` is what [`perform`](Self::perform) must give for `message` (for a
    /// signature: whether it verifies under the key's public half).
    pub fn check(&self, message: &[u8; 32], output: &[u8; 64]) -> bool {
        match self {
            Work::Hash => hash_chain(message) == *output,
            #[cfg(feature = "ecdsa")]
            Work::Ecdsa(signer) => signer.verifies(output),
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
    fn signatures_verify_and_a_damaged_one_does_not() {
        let work = Work::new(Workload::Ecdsa).unwrap();
        let mut signature = work.perform(&message(3, 9));
        assert!(work.check(&message(3, 9), &signature));
        signature[10] ^= 1;
        assert!(!work.check(&message(3, 9), &signature));
        assert!(!work.check(&message(3, 9), &[0; 64]));
    }

    #[cfg(not(feature = "ecdsa"))]
    #[test]
    fn ecdsa_without_the_feature_is_a_config_error() {
        assert_eq!(Work::new(Workload::Ecdsa).unwrap_err().field, "workload");
    }
}
