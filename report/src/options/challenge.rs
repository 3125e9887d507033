//! `contention challenge`'s flags turned into its options: the challenge, the plan, and where
//! a result goes.

use anyhow::Result;
use contention::challenge::{Challenge, Plan};

use super::cli::ChallengeArgs;
use crate::bad_flag::bad_flag;
use crate::challenge::{ChallengeOptions, Destination, SendResult};
use crate::room::client::Room;

/// The options of `args`; a bad name, URL or a --send without a seat is a bad flag. A
/// saved result without --send goes to the room the environment names, as a notebook's
/// `contention send` does, or nowhere, saying why.
pub fn challenge_options(args: ChallengeArgs) -> Result<ChallengeOptions> {
    let challenge: Challenge = args.name.parse()?;
    let send = match (args.send, args.code) {
        (Some(url), Some(code)) => {
            let room = Room::parse(&url).map_err(|why| bad_flag(format!("invalid send = {url}: {why}")))?;
            if args.result.is_none() && args.seat.is_none() {
                return Err(bad_flag("--send needs --seat SEAT (whose result it is) or --result FILE"));
            }
            Destination::Room(SendResult { room, code, seat: args.seat, description: args.description })
        }
        _ if args.result.is_some() => {
            match super::send_cell::room_from_environment(&format!("your {challenge} result"))? {
                Ok((room, code, seat)) => {
                    Destination::Room(SendResult { room, code, seat: Some(seat), description: args.description })
                }
                Err(why) => Destination::NotSent(why),
            }
        }
        _ => Destination::Nowhere,
    };
    let plan = if args.quick { Plan::quick() } else { Plan::default() };
    Ok(ChallengeOptions { challenge, plan, result: args.result, send })
}
