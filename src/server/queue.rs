//! The server's CPU, shared fairly: every search and analysis waits for one of [`Config::jobs`](super::Config::jobs)
//! places (one per core by default) in arrival order, so that 30 pages asking for a 100 ms move get 100 ms of a whole
//! core each, one after the other, rather than 30 searches splitting two cores (each then searching a fifteenth of
//! its nodes). At most [`Config::queue`](super::Config::queue) jobs wait; one more is refused at once with a 503.
//!
//! ```text
//! request -> Queue::enter()  (a 503 if `queue` jobs already wait)  -> Ticket
//!         -> Ticket::turn().await  (first come, first served: tokio's semaphore is fair)  -> Place
//!         -> the work on a blocking thread, its clock starting now; the place is given back when it ends
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::ApiError;

/// The places and the line in front of them.
pub(crate) struct Queue {
    places: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    jobs: usize,
    most_waiting: usize,
}

/// A job's place in the line: a place at once when one was free, else a turn to wait for.
pub(crate) struct Ticket {
    places: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    place: Option<Place>,
    /// Counted among the jobs waiting (it had no place at once).
    in_line: bool,
    /// Jobs waiting ahead of this one when it came (0 with a place at once).
    pub ahead: usize,
}

/// A place to run: the work holds it until it ends.
pub(crate) type Place = OwnedSemaphorePermit;

impl Queue {
    /// `jobs` at once, at most `most_waiting` waiting.
    pub fn new(jobs: usize, most_waiting: usize) -> Queue {
        Queue {
            places: Arc::new(Semaphore::new(jobs.max(1))),
            waiting: Arc::new(AtomicUsize::new(0)),
            jobs: jobs.max(1),
            most_waiting,
        }
    }

    /// A free place now (none is free while jobs wait: a place given back goes to the first of them), else a turn
    /// in the line, or a 503 when `most_waiting` jobs wait already.
    pub(crate) fn enter(&self) -> Result<Ticket, ApiError> {
        let (places, waiting) = (self.places.clone(), self.waiting.clone());
        if let Ok(place) = self.places.clone().try_acquire_owned() {
            return Ok(Ticket { places, waiting, place: Some(place), in_line: false, ahead: 0 });
        }
        let ahead = self.waiting.fetch_add(1, Ordering::SeqCst);
        if ahead >= self.most_waiting {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(ApiError::busy(format!(
                "the server is busy: {} searches run and {} wait, the most it queues (plateau serve --jobs, --queue); \
                 try again in a moment",
                self.jobs, self.most_waiting
            )));
        }
        Ok(Ticket { places, waiting, place: None, in_line: true, ahead })
    }
}

impl Ticket {
    /// Whether the job must wait for its turn.
    pub fn waits(&self) -> bool {
        self.in_line
    }

    /// The job's place: at once, or when its turn comes (first come, first served).
    pub async fn turn(mut self) -> Result<Place, ApiError> {
        if let Some(place) = self.place.take() {
            return Ok(place);
        }
        let place = self.places.clone().acquire_owned().await;
        place.map_err(|_| ApiError::busy("the server is shutting down"))
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        // A ticket that waited leaves the line (its turn came, or its request went away).
        if self.in_line {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
        }
    }
}
