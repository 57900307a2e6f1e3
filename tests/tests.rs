//! One integration-test binary (link time on small CI machines): each module is a topic.
mod rules_front;
