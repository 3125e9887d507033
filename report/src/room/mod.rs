//! The live room of a workshop, in one place: its server ([`server`], `contention room
//! serve`), the pages it draws ([`class_page`] and what the live room adds to it,
//! [`live_page`]) and its client ([`client`]: a seat's pack, guesses, readiness and fix,
//! and `contention check --room`). Every figure and sentence they show is the lib's
//! (`contention::present::room`).

pub mod class_page;
pub mod client;
pub mod live_page;
mod server;

pub use server::{class_file, code, serve, RoomOptions, Space, DEFAULT_ROOM_BYTES, DEFAULT_SEAT_BYTES, MAX_ROOM_BYTES};
