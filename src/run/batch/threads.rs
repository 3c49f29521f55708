//! The thread engine's workers: each takes the next value from the shared input
//! itself, when the byte budget has room, and files its result.

use super::{Input, Shared, Sink, STOP_POLL};

impl<T, S, I, W, G> Shared<T, S, I, W, G>
where
    S: Sink<T>,
    I: Iterator<Item = Input>,
    W: Fn(usize, Input) -> T,
    G: Fn(&T) -> usize,
{
    pub(super) fn work_loop(&self, worker: usize) {
        while self.wait_for_room(worker) {
            let next = {
                let mut feed = self.feed.lock().unwrap_or_else(|e| e.into_inner());
                let value = feed.values.next();
                let index = feed.next;
                feed.next += 1;
                value.map(|value| (index, value))
            };
            let Some((index, input)) = next.filter(|_| !self.stopped()) else {
                let mut order = self.order();
                order.in_flight -= 1;
                order.exhausted = true;
                self.room.notify_all();
                return;
            };
            let result = (self.work)(index, input);
            let weight = (self.weigh)(&result);
            self.deliver(index, result, weight);
        }
    }

    /// Waits until the budget has room (`full`), then counts this worker's next
    /// lookup as in flight.
    fn wait_for_room(&self, worker: usize) -> bool {
        let mut order = self.order();
        loop {
            if order.exhausted {
                return false;
            }
            if !self.full(&order, worker) || self.stopped() {
                break;
            }
            order.waiting += 1;
            order = self
                .room
                .wait_timeout(order, STOP_POLL)
                .unwrap_or_else(|e| e.into_inner())
                .0;
            order.waiting -= 1;
        }
        if self.stopped() {
            return false;
        }
        order.in_flight += 1;
        true
    }
}
