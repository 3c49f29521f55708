
use builtin;
use str;

set edit:completion:arg-completer[smsstat] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'smsstat'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'smsstat'= {
            cand --base-url 'Base URL of the service, e.g. https://gateway.example/rest'
            cand --api-key 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)'
            cand --api-key-file 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed'
            cand --api-key-header 'Name of the request header that carries the API key [default: X-API-KEY]'
            cand --timeout 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]'
            cand --retries 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]'
            cand --paths 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)'
            cand -o 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --output 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --fields 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records'
            cand --field 'Print only this field''s bare value, one line per lookup'
            cand -j 'How many lookups run at once [default: 8]'
            cand --jobs 'How many lookups run at once [default: 8]'
            cand --max-body 'Largest answer body accepted, in bytes [default: 4194304]'
            cand --ca-cert 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on'
            cand --color 'When to colour the output (NO_COLOR in the environment means never)'
            cand --config 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)'
            cand --profile 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)'
            cand --wait-timeout 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]'
            cand --interval 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]'
            cand --until 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike'
            cand --expect 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending'
            cand --expect-delivered 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it'
            cand --json 'Print the service''s JSON, one compact line per lookup (short for -o json)'
            cand --normalize 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)'
            cand -v 'Show the request line, status, latency and retries on stderr (never the API key)'
            cand --verbose 'Show the request line, status, latency and retries on stderr (never the API key)'
            cand --demo 'Run against a built-in simulator on a loopback port: no configuration needed'
            cand --mask-msisdn 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67'
            cand --wait 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it'
            cand --follow 'With --wait: print one JSON line per observed change instead of the final record only'
            cand --raw-cells 'CSV/TSV: print cells exactly as sent, without the '' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand sms 'Delivery status of SMS messages by their numeric ID'
            cand sms-ref 'Delivery status of SMS messages by the client''s reference'
            cand task 'Aggregate counters of multi-recipient SMS tasks'
            cand hlr 'Result of HLR requests (phone-number lookups) by their ID'
            cand hlr-ref 'Result of HLR requests by the client''s reference'
            cand sim 'Serve the whole status API on loopback with simulated data (until Ctrl-C)'
            cand config 'Inspect the settings: where each one comes from (flag, environment, profile, file)'
            cand check 'Check that this setup can work: settings, name, connection, TLS, the key, latency, routes and proxy, step by step (exit: the first failing step''s code)'
            cand completions 'Print a shell completion script to stdout'
            cand man 'Print the man page (roff) to stdout'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smsstat;sms'= {
            cand --base-url 'Base URL of the service, e.g. https://gateway.example/rest'
            cand --api-key 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)'
            cand --api-key-file 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed'
            cand --api-key-header 'Name of the request header that carries the API key [default: X-API-KEY]'
            cand --timeout 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]'
            cand --retries 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]'
            cand --paths 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)'
            cand -o 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --output 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --fields 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records'
            cand --field 'Print only this field''s bare value, one line per lookup'
            cand -j 'How many lookups run at once [default: 8]'
            cand --jobs 'How many lookups run at once [default: 8]'
            cand --max-body 'Largest answer body accepted, in bytes [default: 4194304]'
            cand --ca-cert 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on'
            cand --color 'When to colour the output (NO_COLOR in the environment means never)'
            cand --config 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)'
            cand --profile 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)'
            cand --wait-timeout 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]'
            cand --interval 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]'
            cand --until 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike'
            cand --expect 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending'
            cand --expect-delivered 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it'
            cand --json 'Print the service''s JSON, one compact line per lookup (short for -o json)'
            cand --normalize 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)'
            cand -v 'Show the request line, status, latency and retries on stderr (never the API key)'
            cand --verbose 'Show the request line, status, latency and retries on stderr (never the API key)'
            cand --demo 'Run against a built-in simulator on a loopback port: no configuration needed'
            cand --mask-msisdn 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67'
            cand --wait 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it'
            cand --follow 'With --wait: print one JSON line per observed change instead of the final record only'
            cand --raw-cells 'CSV/TSV: print cells exactly as sent, without the '' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'smsstat;sms-ref'= {
            cand --base-url 'Base URL of the service, e.g. https://gateway.example/rest'
            cand --api-key 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)'
            cand --api-key-file 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed'
            cand --api-key-header 'Name of the request header that carries the API key [default: X-API-KEY]'
            cand --timeout 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]'
            cand --retries 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]'
            cand --paths 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)'
            cand -o 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --output 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --fields 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records'
            cand --field 'Print only this field''s bare value, one line per lookup'
            cand -j 'How many lookups run at once [default: 8]'
            cand --jobs 'How many lookups run at once [default: 8]'
            cand --max-body 'Largest answer body accepted, in bytes [default: 4194304]'
            cand --ca-cert 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on'
            cand --color 'When to colour the output (NO_COLOR in the environment means never)'
            cand --config 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)'
            cand --profile 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)'
            cand --wait-timeout 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]'
            cand --interval 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]'
            cand --until 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike'
            cand --expect 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending'
            cand --expect-delivered 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it'
            cand --json 'Print the service''s JSON, one compact line per lookup (short for -o json)'
            cand --normalize 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)'
            cand -v 'Show the request line, status, latency and retries on stderr (never the API key)'
            cand --verbose 'Show the request line, status, latency and retries on stderr (never the API key)'
            cand --demo 'Run against a built-in simulator on a loopback port: no configuration needed'
            cand --mask-msisdn 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67'
            cand --wait 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it'
            cand --follow 'With --wait: print one JSON line per observed change instead of the final record only'
            cand --raw-cells 'CSV/TSV: print cells exactly as sent, without the '' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'smsstat;task'= {
            cand --base-url 'Base URL of the service, e.g. https://gateway.example/rest'
            cand --api-key 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)'
            cand --api-key-file 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed'
            cand --api-key-header 'Name of the request header that carries the API key [default: X-API-KEY]'
            cand --timeout 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]'
            cand --retries 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]'
            cand --paths 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)'
            cand -o 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --output 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --fields 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records'
            cand --field 'Print only this field''s bare value, one line per lookup'
            cand -j 'How many lookups run at once [default: 8]'
            cand --jobs 'How many lookups run at once [default: 8]'
            cand --max-body 'Largest answer body accepted, in bytes [default: 4194304]'
            cand --ca-cert 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on'
            cand --color 'When to colour the output (NO_COLOR in the environment means never)'
            cand --config 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)'
            cand --profile 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)'
            cand --wait-timeout 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]'
            cand --interval 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]'
            cand --until 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike'
            cand --expect 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending'
            cand --expect-delivered 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it'
            cand --json 'Print the service''s JSON, one compact line per lookup (short for -o json)'
            cand --normalize 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)'
            cand -v 'Show the request line, status, latency and retries on stderr (never the API key)'
            cand --verbose 'Show the request line, status, latency and retries on stderr (never the API key)'
            cand --demo 'Run against a built-in simulator on a loopback port: no configuration needed'
            cand --mask-msisdn 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67'
            cand --wait 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it'
            cand --follow 'With --wait: print one JSON line per observed change instead of the final record only'
            cand --raw-cells 'CSV/TSV: print cells exactly as sent, without the '' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'smsstat;hlr'= {
            cand --base-url 'Base URL of the service, e.g. https://gateway.example/rest'
            cand --api-key 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)'
            cand --api-key-file 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed'
            cand --api-key-header 'Name of the request header that carries the API key [default: X-API-KEY]'
            cand --timeout 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]'
            cand --retries 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]'
            cand --paths 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)'
            cand -o 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --output 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --fields 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records'
            cand --field 'Print only this field''s bare value, one line per lookup'
            cand -j 'How many lookups run at once [default: 8]'
            cand --jobs 'How many lookups run at once [default: 8]'
            cand --max-body 'Largest answer body accepted, in bytes [default: 4194304]'
            cand --ca-cert 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on'
            cand --color 'When to colour the output (NO_COLOR in the environment means never)'
            cand --config 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)'
            cand --profile 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)'
            cand --wait-timeout 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]'
            cand --interval 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]'
            cand --until 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike'
            cand --expect 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending'
            cand --expect-delivered 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it'
            cand --json 'Print the service''s JSON, one compact line per lookup (short for -o json)'
            cand --normalize 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)'
            cand -v 'Show the request line, status, latency and retries on stderr (never the API key)'
            cand --verbose 'Show the request line, status, latency and retries on stderr (never the API key)'
            cand --demo 'Run against a built-in simulator on a loopback port: no configuration needed'
            cand --mask-msisdn 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67'
            cand --wait 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it'
            cand --follow 'With --wait: print one JSON line per observed change instead of the final record only'
            cand --raw-cells 'CSV/TSV: print cells exactly as sent, without the '' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'smsstat;hlr-ref'= {
            cand --base-url 'Base URL of the service, e.g. https://gateway.example/rest'
            cand --api-key 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)'
            cand --api-key-file 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed'
            cand --api-key-header 'Name of the request header that carries the API key [default: X-API-KEY]'
            cand --timeout 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]'
            cand --retries 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]'
            cand --paths 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)'
            cand -o 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --output 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --fields 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records'
            cand --field 'Print only this field''s bare value, one line per lookup'
            cand -j 'How many lookups run at once [default: 8]'
            cand --jobs 'How many lookups run at once [default: 8]'
            cand --max-body 'Largest answer body accepted, in bytes [default: 4194304]'
            cand --ca-cert 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on'
            cand --color 'When to colour the output (NO_COLOR in the environment means never)'
            cand --config 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)'
            cand --profile 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)'
            cand --wait-timeout 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]'
            cand --interval 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]'
            cand --until 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike'
            cand --expect 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending'
            cand --expect-delivered 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it'
            cand --json 'Print the service''s JSON, one compact line per lookup (short for -o json)'
            cand --normalize 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)'
            cand -v 'Show the request line, status, latency and retries on stderr (never the API key)'
            cand --verbose 'Show the request line, status, latency and retries on stderr (never the API key)'
            cand --demo 'Run against a built-in simulator on a loopback port: no configuration needed'
            cand --mask-msisdn 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67'
            cand --wait 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it'
            cand --follow 'With --wait: print one JSON line per observed change instead of the final record only'
            cand --raw-cells 'CSV/TSV: print cells exactly as sent, without the '' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'smsstat;sim'= {
            cand --listen 'Address to listen on (port 0 picks a free port)'
            cand --settle 'Time after start by which every record has reached its final state (0: final at once)'
            cand --api-key 'Require this key in the X-API-KEY header (error 1 otherwise); by default any key or none is accepted'
            cand --latency 'Delay added before every answer'
            cand --fail-rate 'Fraction of requests answered with 503 and an HTML body (0.0 to 1.0)'
            cand --seed 'Seed of the fault sequence (fail-rate decisions)'
            cand --string-numbers 'Send numeric fields as JSON strings ("price": "0.23")'
            cand --omit-error 'Leave the `error` field out of successful answers'
            cand --extra-fields 'Add fields the spec does not list (id on SMS; name_en, brand, name on HLR)'
            cand --no-errors-text 'Add `"errorDescription": "No errors"` to successful answers that carry `error`'
            cand --rate-limit 'Answer more than N requests a second with 429 and `Retry-After`'
            cand --task-counters 'Shape of task records: `spec` (sent is the total) or `v1` (adds total, queued, accepted, enroute)'
            cand --errors-with-200 'Answer service errors with HTTP 200 and the JSON error body, as the live service does (unknown paths then answer error 4)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'smsstat;config'= {
            cand --base-url 'Base URL of the service, e.g. https://gateway.example/rest'
            cand --api-key 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)'
            cand --api-key-file 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed'
            cand --api-key-header 'Name of the request header that carries the API key [default: X-API-KEY]'
            cand --timeout 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]'
            cand --retries 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]'
            cand -o 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --output 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --ca-cert 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on'
            cand --config 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)'
            cand --profile 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)'
            cand --json 'Print the service''s JSON, one compact line per lookup (short for -o json)'
            cand --demo 'Run against a built-in simulator on a loopback port: no configuration needed'
            cand -h 'Print help'
            cand --help 'Print help'
            cand show 'Print every resolved setting, its value and where it came from (the key masked); exit 78 when the settings could not run a lookup'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smsstat;config;show'= {
            cand --base-url 'Base URL of the service, e.g. https://gateway.example/rest'
            cand --api-key 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)'
            cand --api-key-file 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed'
            cand --api-key-header 'Name of the request header that carries the API key [default: X-API-KEY]'
            cand --timeout 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]'
            cand --retries 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]'
            cand -o 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --output 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --ca-cert 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on'
            cand --config 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)'
            cand --profile 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)'
            cand --json 'Print the service''s JSON, one compact line per lookup (short for -o json)'
            cand --demo 'Run against a built-in simulator on a loopback port: no configuration needed'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'smsstat;config;help'= {
            cand show 'Print every resolved setting, its value and where it came from (the key masked); exit 78 when the settings could not run a lookup'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smsstat;config;help;show'= {
        }
        &'smsstat;config;help;help'= {
        }
        &'smsstat;check'= {
            cand --base-url 'Base URL of the service, e.g. https://gateway.example/rest'
            cand --api-key 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)'
            cand --api-key-file 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed'
            cand --api-key-header 'Name of the request header that carries the API key [default: X-API-KEY]'
            cand --timeout 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]'
            cand --retries 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]'
            cand -o 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --output 'Output format (SMSSTAT_OUTPUT in the environment sets it too) [default: table]'
            cand --ca-cert 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on'
            cand --config 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)'
            cand --profile 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)'
            cand --json 'Print the service''s JSON, one compact line per lookup (short for -o json)'
            cand -v 'Show the request line, status, latency and retries on stderr (never the API key)'
            cand --verbose 'Show the request line, status, latency and retries on stderr (never the API key)'
            cand --demo 'Run against a built-in simulator on a loopback port: no configuration needed'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'smsstat;completions'= {
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'smsstat;man'= {
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'smsstat;help'= {
            cand sms 'Delivery status of SMS messages by their numeric ID'
            cand sms-ref 'Delivery status of SMS messages by the client''s reference'
            cand task 'Aggregate counters of multi-recipient SMS tasks'
            cand hlr 'Result of HLR requests (phone-number lookups) by their ID'
            cand hlr-ref 'Result of HLR requests by the client''s reference'
            cand sim 'Serve the whole status API on loopback with simulated data (until Ctrl-C)'
            cand config 'Inspect the settings: where each one comes from (flag, environment, profile, file)'
            cand check 'Check that this setup can work: settings, name, connection, TLS, the key, latency, routes and proxy, step by step (exit: the first failing step''s code)'
            cand completions 'Print a shell completion script to stdout'
            cand man 'Print the man page (roff) to stdout'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'smsstat;help;sms'= {
        }
        &'smsstat;help;sms-ref'= {
        }
        &'smsstat;help;task'= {
        }
        &'smsstat;help;hlr'= {
        }
        &'smsstat;help;hlr-ref'= {
        }
        &'smsstat;help;sim'= {
        }
        &'smsstat;help;config'= {
            cand show 'Print every resolved setting, its value and where it came from (the key masked); exit 78 when the settings could not run a lookup'
        }
        &'smsstat;help;config;show'= {
        }
        &'smsstat;help;check'= {
        }
        &'smsstat;help;completions'= {
        }
        &'smsstat;help;man'= {
        }
        &'smsstat;help;help'= {
        }
    ]
    $completions[$command]
}
