//! `contention challenge`'s flags turned into its options: the challenge, the plan, and where
//! a result goes.

use anyhow::Result;
use contention::challenge::Plan;

use super::cli::ChallengeArgs;
use crate::bad_flag::bad_flag;
use crate::challenge::{ChallengeOptions, SendResult};
use crate::send::Room;

/// The options of `args`; a bad name, URL or a --send without a seat is a usage error.
pub fn challenge_options(args: ChallengeArgs) -> Result<ChallengeOptions> {
    let challenge = args.name.parse()?;
    let send = match (args.send, args.code) {
        (Some(url), Some(code)) => {
            let room = Room::parse(&url).map_err(|why| bad_flag(format!("invalid send = {url}: {why}")))?;
            if args.result.is_none() && args.seat.is_none() {
                return Err(bad_flag("--send needs --seat SEAT (whose result it is) or --result FILE"));
            }
            Some(SendResult { room, code, seat: args.seat, description: args.description })
        }
        _ => None,
    };
    let plan = if args.quick { Plan::quick() } else { Plan::default() };
    Ok(ChallengeOptions { challenge, plan, result: args.result, send })
}
