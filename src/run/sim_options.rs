//! `smsstat sim`'s flags to the simulator's options: the variant's defaults first,
//! then every flag given (cli/ may not import sim/, so the two meet here).

use crate::cli::sim_args::{Numbers, Oddity, SimArgs, SimCodes, SimVariant, TaskCounterShape};
use crate::sim;

/// The simulator's options: the variant's defaults, then every flag given.
/// `api_key` is the simulator's key check, when one was asked for.
pub(crate) fn sim_options(args: SimArgs, api_key: Option<String>) -> sim::SimOptions {
    let oddity = |choice: Oddity| match choice {
        Oddity::Mixed => sim::Oddity::Mixed,
        Oddity::Always => sim::Oddity::Always,
        Oddity::Never => sim::Oddity::Never,
    };
    let variant = match args.variant {
        SimVariant::Spec => sim::Variant::Spec,
        SimVariant::V1 => sim::Variant::V1,
    };
    let mut options = sim::SimOptions {
        listen: args.listen,
        settle: args.settle,
        api_key,
        latency: args.latency,
        fail_rate: args.fail_rate,
        seed: args.seed,
        extra_fields: oddity(args.extra_fields),
        rate_limit: args.rate_limit,
        log: !args.quiet,
        ..sim::SimOptions::demo()
    }
    .with_variant(variant);
    let numbers = args.numbers.map(|numbers| match numbers {
        Numbers::Mixed => sim::Oddity::Mixed,
        Numbers::Integers => sim::Oddity::Never,
        Numbers::Strings => sim::Oddity::Always,
    });
    if let Some(choice) = numbers.or(args.string_numbers.map(oddity)) {
        options.string_numbers = choice;
    }
    if let Some(choice) = args.omit_error {
        options.omit_error = oddity(choice);
    }
    if let Some(choice) = args.no_errors_text {
        options.no_errors_text = oddity(choice);
    }
    if let Some(codes) = args.codes {
        options.codes = match codes {
            SimCodes::Spec => sim::Codes::Spec,
            SimCodes::Vendor => sim::Codes::Vendor,
        };
    }
    if let Some(shape) = args.task_counters {
        options.task_v1 = shape == TaskCounterShape::V1;
    }
    options.errors_with_200 |= args.errors_with_200;
    options
}
