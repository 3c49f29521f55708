
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'smsstat' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'smsstat'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'smsstat' {
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service, e.g. https://gateway.example/rest')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)')
            [CompletionResult]::new('--api-key-file', '--api-key-file', [CompletionResultType]::ParameterName, 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed')
            [CompletionResult]::new('--api-key-header', '--api-key-header', [CompletionResultType]::ParameterName, 'Name of the request header that carries the API key [default: X-API-KEY]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records')
            [CompletionResult]::new('--field', '--field', [CompletionResultType]::ParameterName, 'Print only this field''s bare value, one line per lookup')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'How many lookups run at once [default: 8]')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'How many lookups run at once [default: 8]')
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'Largest answer body accepted, in bytes [default: 4194304]')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output (NO_COLOR in the environment means never)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)')
            [CompletionResult]::new('--wait-timeout', '--wait-timeout', [CompletionResultType]::ParameterName, 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike')
            [CompletionResult]::new('--expect', '--expect', [CompletionResultType]::ParameterName, 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending')
            [CompletionResult]::new('--expect-delivered', '--expect-delivered', [CompletionResultType]::ParameterName, 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it')
            [CompletionResult]::new('--rate', '--rate', [CompletionResultType]::ParameterName, 'At most N requests per second (N/s) or per minute (N/m) across all lookups, polls and retries included, e.g. 50/s or 600/m')
            [CompletionResult]::new('--junit', '--junit', [CompletionResultType]::ParameterName, 'Also write a JUnit XML file: one test case per lookup, a failure for each failed lookup or unmet expectation (for CI test reports); next to any output format')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the service''s JSON, one compact line per lookup (short for -o json)')
            [CompletionResult]::new('--normalize', '--normalize', [CompletionResultType]::ParameterName, 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show the request line, status, latency and retries on stderr (never the API key)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show the request line, status, latency and retries on stderr (never the API key)')
            [CompletionResult]::new('--demo', '--demo', [CompletionResultType]::ParameterName, 'Run against a built-in simulator on a loopback port: no configuration needed')
            [CompletionResult]::new('--mask-msisdn', '--mask-msisdn', [CompletionResultType]::ParameterName, 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'With --wait: print one JSON line per observed change (each with `kind` and `query`), and a failure as soon as it happens, instead of the final records only')
            [CompletionResult]::new('--keep-going', '--keep-going', [CompletionResultType]::ParameterName, 'Look up every value even after the service refused the account (error 1 or 2) or every connection was refused (by default the rest are "not looked up")')
            [CompletionResult]::new('--raw-cells', '--raw-cells', [CompletionResultType]::ParameterName, 'CSV/TSV: print cells exactly as sent, without the '' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Leave out the header line of table, CSV and TSV output (for pipelines)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('sms', 'sms', [CompletionResultType]::ParameterValue, 'Delivery status of SMS messages by their numeric ID')
            [CompletionResult]::new('sms-ref', 'sms-ref', [CompletionResultType]::ParameterValue, 'Delivery status of SMS messages by the client''s reference')
            [CompletionResult]::new('task', 'task', [CompletionResultType]::ParameterValue, 'Aggregate counters of multi-recipient SMS tasks')
            [CompletionResult]::new('hlr', 'hlr', [CompletionResultType]::ParameterValue, 'Result of HLR requests (phone-number lookups) by their ID')
            [CompletionResult]::new('hlr-ref', 'hlr-ref', [CompletionResultType]::ParameterValue, 'Result of HLR requests by the client''s reference')
            [CompletionResult]::new('sim', 'sim', [CompletionResultType]::ParameterValue, 'Serve the whole status API on loopback with simulated data (until Ctrl-C)')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Inspect the settings: where each one comes from (flag, environment, profile, file)')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check that this setup can work: settings, name, connection, TLS, the key, latency, routes and proxy, step by step (exit: the first failing step''s code)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script to stdout')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff) to stdout')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smsstat;sms' {
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service, e.g. https://gateway.example/rest')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)')
            [CompletionResult]::new('--api-key-file', '--api-key-file', [CompletionResultType]::ParameterName, 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed')
            [CompletionResult]::new('--api-key-header', '--api-key-header', [CompletionResultType]::ParameterName, 'Name of the request header that carries the API key [default: X-API-KEY]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records')
            [CompletionResult]::new('--field', '--field', [CompletionResultType]::ParameterName, 'Print only this field''s bare value, one line per lookup')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'How many lookups run at once [default: 8]')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'How many lookups run at once [default: 8]')
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'Largest answer body accepted, in bytes [default: 4194304]')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output (NO_COLOR in the environment means never)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)')
            [CompletionResult]::new('--wait-timeout', '--wait-timeout', [CompletionResultType]::ParameterName, 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike')
            [CompletionResult]::new('--expect', '--expect', [CompletionResultType]::ParameterName, 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending')
            [CompletionResult]::new('--expect-delivered', '--expect-delivered', [CompletionResultType]::ParameterName, 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it')
            [CompletionResult]::new('--rate', '--rate', [CompletionResultType]::ParameterName, 'At most N requests per second (N/s) or per minute (N/m) across all lookups, polls and retries included, e.g. 50/s or 600/m')
            [CompletionResult]::new('--junit', '--junit', [CompletionResultType]::ParameterName, 'Also write a JUnit XML file: one test case per lookup, a failure for each failed lookup or unmet expectation (for CI test reports); next to any output format')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the service''s JSON, one compact line per lookup (short for -o json)')
            [CompletionResult]::new('--normalize', '--normalize', [CompletionResultType]::ParameterName, 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show the request line, status, latency and retries on stderr (never the API key)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show the request line, status, latency and retries on stderr (never the API key)')
            [CompletionResult]::new('--demo', '--demo', [CompletionResultType]::ParameterName, 'Run against a built-in simulator on a loopback port: no configuration needed')
            [CompletionResult]::new('--mask-msisdn', '--mask-msisdn', [CompletionResultType]::ParameterName, 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'With --wait: print one JSON line per observed change (each with `kind` and `query`), and a failure as soon as it happens, instead of the final records only')
            [CompletionResult]::new('--keep-going', '--keep-going', [CompletionResultType]::ParameterName, 'Look up every value even after the service refused the account (error 1 or 2) or every connection was refused (by default the rest are "not looked up")')
            [CompletionResult]::new('--raw-cells', '--raw-cells', [CompletionResultType]::ParameterName, 'CSV/TSV: print cells exactly as sent, without the '' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Leave out the header line of table, CSV and TSV output (for pipelines)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'smsstat;sms-ref' {
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service, e.g. https://gateway.example/rest')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)')
            [CompletionResult]::new('--api-key-file', '--api-key-file', [CompletionResultType]::ParameterName, 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed')
            [CompletionResult]::new('--api-key-header', '--api-key-header', [CompletionResultType]::ParameterName, 'Name of the request header that carries the API key [default: X-API-KEY]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records')
            [CompletionResult]::new('--field', '--field', [CompletionResultType]::ParameterName, 'Print only this field''s bare value, one line per lookup')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'How many lookups run at once [default: 8]')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'How many lookups run at once [default: 8]')
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'Largest answer body accepted, in bytes [default: 4194304]')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output (NO_COLOR in the environment means never)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)')
            [CompletionResult]::new('--wait-timeout', '--wait-timeout', [CompletionResultType]::ParameterName, 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike')
            [CompletionResult]::new('--expect', '--expect', [CompletionResultType]::ParameterName, 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending')
            [CompletionResult]::new('--expect-delivered', '--expect-delivered', [CompletionResultType]::ParameterName, 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it')
            [CompletionResult]::new('--rate', '--rate', [CompletionResultType]::ParameterName, 'At most N requests per second (N/s) or per minute (N/m) across all lookups, polls and retries included, e.g. 50/s or 600/m')
            [CompletionResult]::new('--junit', '--junit', [CompletionResultType]::ParameterName, 'Also write a JUnit XML file: one test case per lookup, a failure for each failed lookup or unmet expectation (for CI test reports); next to any output format')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the service''s JSON, one compact line per lookup (short for -o json)')
            [CompletionResult]::new('--normalize', '--normalize', [CompletionResultType]::ParameterName, 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show the request line, status, latency and retries on stderr (never the API key)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show the request line, status, latency and retries on stderr (never the API key)')
            [CompletionResult]::new('--demo', '--demo', [CompletionResultType]::ParameterName, 'Run against a built-in simulator on a loopback port: no configuration needed')
            [CompletionResult]::new('--mask-msisdn', '--mask-msisdn', [CompletionResultType]::ParameterName, 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'With --wait: print one JSON line per observed change (each with `kind` and `query`), and a failure as soon as it happens, instead of the final records only')
            [CompletionResult]::new('--keep-going', '--keep-going', [CompletionResultType]::ParameterName, 'Look up every value even after the service refused the account (error 1 or 2) or every connection was refused (by default the rest are "not looked up")')
            [CompletionResult]::new('--raw-cells', '--raw-cells', [CompletionResultType]::ParameterName, 'CSV/TSV: print cells exactly as sent, without the '' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Leave out the header line of table, CSV and TSV output (for pipelines)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'smsstat;task' {
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service, e.g. https://gateway.example/rest')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)')
            [CompletionResult]::new('--api-key-file', '--api-key-file', [CompletionResultType]::ParameterName, 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed')
            [CompletionResult]::new('--api-key-header', '--api-key-header', [CompletionResultType]::ParameterName, 'Name of the request header that carries the API key [default: X-API-KEY]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records')
            [CompletionResult]::new('--field', '--field', [CompletionResultType]::ParameterName, 'Print only this field''s bare value, one line per lookup')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'How many lookups run at once [default: 8]')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'How many lookups run at once [default: 8]')
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'Largest answer body accepted, in bytes [default: 4194304]')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output (NO_COLOR in the environment means never)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)')
            [CompletionResult]::new('--wait-timeout', '--wait-timeout', [CompletionResultType]::ParameterName, 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike')
            [CompletionResult]::new('--expect', '--expect', [CompletionResultType]::ParameterName, 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending')
            [CompletionResult]::new('--expect-delivered', '--expect-delivered', [CompletionResultType]::ParameterName, 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it')
            [CompletionResult]::new('--rate', '--rate', [CompletionResultType]::ParameterName, 'At most N requests per second (N/s) or per minute (N/m) across all lookups, polls and retries included, e.g. 50/s or 600/m')
            [CompletionResult]::new('--junit', '--junit', [CompletionResultType]::ParameterName, 'Also write a JUnit XML file: one test case per lookup, a failure for each failed lookup or unmet expectation (for CI test reports); next to any output format')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the service''s JSON, one compact line per lookup (short for -o json)')
            [CompletionResult]::new('--normalize', '--normalize', [CompletionResultType]::ParameterName, 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show the request line, status, latency and retries on stderr (never the API key)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show the request line, status, latency and retries on stderr (never the API key)')
            [CompletionResult]::new('--demo', '--demo', [CompletionResultType]::ParameterName, 'Run against a built-in simulator on a loopback port: no configuration needed')
            [CompletionResult]::new('--mask-msisdn', '--mask-msisdn', [CompletionResultType]::ParameterName, 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'With --wait: print one JSON line per observed change (each with `kind` and `query`), and a failure as soon as it happens, instead of the final records only')
            [CompletionResult]::new('--keep-going', '--keep-going', [CompletionResultType]::ParameterName, 'Look up every value even after the service refused the account (error 1 or 2) or every connection was refused (by default the rest are "not looked up")')
            [CompletionResult]::new('--raw-cells', '--raw-cells', [CompletionResultType]::ParameterName, 'CSV/TSV: print cells exactly as sent, without the '' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Leave out the header line of table, CSV and TSV output (for pipelines)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'smsstat;hlr' {
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service, e.g. https://gateway.example/rest')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)')
            [CompletionResult]::new('--api-key-file', '--api-key-file', [CompletionResultType]::ParameterName, 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed')
            [CompletionResult]::new('--api-key-header', '--api-key-header', [CompletionResultType]::ParameterName, 'Name of the request header that carries the API key [default: X-API-KEY]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records')
            [CompletionResult]::new('--field', '--field', [CompletionResultType]::ParameterName, 'Print only this field''s bare value, one line per lookup')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'How many lookups run at once [default: 8]')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'How many lookups run at once [default: 8]')
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'Largest answer body accepted, in bytes [default: 4194304]')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output (NO_COLOR in the environment means never)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)')
            [CompletionResult]::new('--wait-timeout', '--wait-timeout', [CompletionResultType]::ParameterName, 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike')
            [CompletionResult]::new('--expect', '--expect', [CompletionResultType]::ParameterName, 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending')
            [CompletionResult]::new('--expect-delivered', '--expect-delivered', [CompletionResultType]::ParameterName, 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it')
            [CompletionResult]::new('--rate', '--rate', [CompletionResultType]::ParameterName, 'At most N requests per second (N/s) or per minute (N/m) across all lookups, polls and retries included, e.g. 50/s or 600/m')
            [CompletionResult]::new('--junit', '--junit', [CompletionResultType]::ParameterName, 'Also write a JUnit XML file: one test case per lookup, a failure for each failed lookup or unmet expectation (for CI test reports); next to any output format')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the service''s JSON, one compact line per lookup (short for -o json)')
            [CompletionResult]::new('--normalize', '--normalize', [CompletionResultType]::ParameterName, 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show the request line, status, latency and retries on stderr (never the API key)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show the request line, status, latency and retries on stderr (never the API key)')
            [CompletionResult]::new('--demo', '--demo', [CompletionResultType]::ParameterName, 'Run against a built-in simulator on a loopback port: no configuration needed')
            [CompletionResult]::new('--mask-msisdn', '--mask-msisdn', [CompletionResultType]::ParameterName, 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'With --wait: print one JSON line per observed change (each with `kind` and `query`), and a failure as soon as it happens, instead of the final records only')
            [CompletionResult]::new('--keep-going', '--keep-going', [CompletionResultType]::ParameterName, 'Look up every value even after the service refused the account (error 1 or 2) or every connection was refused (by default the rest are "not looked up")')
            [CompletionResult]::new('--raw-cells', '--raw-cells', [CompletionResultType]::ParameterName, 'CSV/TSV: print cells exactly as sent, without the '' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Leave out the header line of table, CSV and TSV output (for pipelines)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'smsstat;hlr-ref' {
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service, e.g. https://gateway.example/rest')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)')
            [CompletionResult]::new('--api-key-file', '--api-key-file', [CompletionResultType]::ParameterName, 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed')
            [CompletionResult]::new('--api-key-header', '--api-key-header', [CompletionResultType]::ParameterName, 'Name of the request header that carries the API key [default: X-API-KEY]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]')
            [CompletionResult]::new('--paths', '--paths', [CompletionResultType]::ParameterName, 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--fields', '--fields', [CompletionResultType]::ParameterName, 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records')
            [CompletionResult]::new('--field', '--field', [CompletionResultType]::ParameterName, 'Print only this field''s bare value, one line per lookup')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'How many lookups run at once [default: 8]')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'How many lookups run at once [default: 8]')
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'Largest answer body accepted, in bytes [default: 4194304]')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output (NO_COLOR in the environment means never)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)')
            [CompletionResult]::new('--wait-timeout', '--wait-timeout', [CompletionResultType]::ParameterName, 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike')
            [CompletionResult]::new('--expect', '--expect', [CompletionResultType]::ParameterName, 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending')
            [CompletionResult]::new('--expect-delivered', '--expect-delivered', [CompletionResultType]::ParameterName, 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it')
            [CompletionResult]::new('--rate', '--rate', [CompletionResultType]::ParameterName, 'At most N requests per second (N/s) or per minute (N/m) across all lookups, polls and retries included, e.g. 50/s or 600/m')
            [CompletionResult]::new('--junit', '--junit', [CompletionResultType]::ParameterName, 'Also write a JUnit XML file: one test case per lookup, a failure for each failed lookup or unmet expectation (for CI test reports); next to any output format')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the service''s JSON, one compact line per lookup (short for -o json)')
            [CompletionResult]::new('--normalize', '--normalize', [CompletionResultType]::ParameterName, 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show the request line, status, latency and retries on stderr (never the API key)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show the request line, status, latency and retries on stderr (never the API key)')
            [CompletionResult]::new('--demo', '--demo', [CompletionResultType]::ParameterName, 'Run against a built-in simulator on a loopback port: no configuration needed')
            [CompletionResult]::new('--mask-msisdn', '--mask-msisdn', [CompletionResultType]::ParameterName, 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'With --wait: print one JSON line per observed change (each with `kind` and `query`), and a failure as soon as it happens, instead of the final records only')
            [CompletionResult]::new('--keep-going', '--keep-going', [CompletionResultType]::ParameterName, 'Look up every value even after the service refused the account (error 1 or 2) or every connection was refused (by default the rest are "not looked up")')
            [CompletionResult]::new('--raw-cells', '--raw-cells', [CompletionResultType]::ParameterName, 'CSV/TSV: print cells exactly as sent, without the '' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Leave out the header line of table, CSV and TSV output (for pipelines)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'smsstat;sim' {
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'Address to listen on (port 0 picks a free port)')
            [CompletionResult]::new('--settle', '--settle', [CompletionResultType]::ParameterName, 'Time after start by which every record has reached its final state (0: final at once)')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'Require this key in the X-API-KEY header (error 1 otherwise); by default any key or none is accepted')
            [CompletionResult]::new('--latency', '--latency', [CompletionResultType]::ParameterName, 'Delay added before every answer')
            [CompletionResult]::new('--fail-rate', '--fail-rate', [CompletionResultType]::ParameterName, 'Fraction of requests answered with 503 and an HTML body (0.0 to 1.0)')
            [CompletionResult]::new('--seed', '--seed', [CompletionResultType]::ParameterName, 'Seed of the fault sequence (fail-rate decisions)')
            [CompletionResult]::new('--string-numbers', '--string-numbers', [CompletionResultType]::ParameterName, 'Send numeric fields as JSON strings ("price": "0.23")')
            [CompletionResult]::new('--omit-error', '--omit-error', [CompletionResultType]::ParameterName, 'Leave the `error` field out of successful answers')
            [CompletionResult]::new('--extra-fields', '--extra-fields', [CompletionResultType]::ParameterName, 'Add fields the spec does not list (id on SMS; name_en, brand, name on HLR)')
            [CompletionResult]::new('--no-errors-text', '--no-errors-text', [CompletionResultType]::ParameterName, 'Add `"errorDescription": "No errors"` to successful answers that carry `error`')
            [CompletionResult]::new('--rate-limit', '--rate-limit', [CompletionResultType]::ParameterName, 'Answer more than N requests a second with 429 and `Retry-After`')
            [CompletionResult]::new('--task-counters', '--task-counters', [CompletionResultType]::ParameterName, 'Shape of task records: `spec` (sent is the total) or `v1` (adds total, queued, accepted, enroute)')
            [CompletionResult]::new('--errors-with-200', '--errors-with-200', [CompletionResultType]::ParameterName, 'Answer service errors with HTTP 200 and the JSON error body, as the live service does (unknown paths then answer error 4)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'smsstat;config' {
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service, e.g. https://gateway.example/rest')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)')
            [CompletionResult]::new('--api-key-file', '--api-key-file', [CompletionResultType]::ParameterName, 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed')
            [CompletionResult]::new('--api-key-header', '--api-key-header', [CompletionResultType]::ParameterName, 'Name of the request header that carries the API key [default: X-API-KEY]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the service''s JSON, one compact line per lookup (short for -o json)')
            [CompletionResult]::new('--demo', '--demo', [CompletionResultType]::ParameterName, 'Run against a built-in simulator on a loopback port: no configuration needed')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print every resolved setting, its value and where it came from (the key masked); exit 78 when the settings could not run a lookup')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smsstat;config;show' {
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service, e.g. https://gateway.example/rest')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)')
            [CompletionResult]::new('--api-key-file', '--api-key-file', [CompletionResultType]::ParameterName, 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed')
            [CompletionResult]::new('--api-key-header', '--api-key-header', [CompletionResultType]::ParameterName, 'Name of the request header that carries the API key [default: X-API-KEY]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the service''s JSON, one compact line per lookup (short for -o json)')
            [CompletionResult]::new('--demo', '--demo', [CompletionResultType]::ParameterName, 'Run against a built-in simulator on a loopback port: no configuration needed')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'smsstat;config;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print every resolved setting, its value and where it came from (the key masked); exit 78 when the settings could not run a lookup')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smsstat;config;help;show' {
            break
        }
        'smsstat;config;help;help' {
            break
        }
        'smsstat;check' {
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the service, e.g. https://gateway.example/rest')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)')
            [CompletionResult]::new('--api-key-file', '--api-key-file', [CompletionResultType]::ParameterName, 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed')
            [CompletionResult]::new('--api-key-header', '--api-key-header', [CompletionResultType]::ParameterName, 'Name of the request header that carries the API key [default: X-API-KEY]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]')
            [CompletionResult]::new('--retries', '--retries', [CompletionResultType]::ParameterName, 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]')
            [CompletionResult]::new('--ca-cert', '--ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the service''s JSON, one compact line per lookup (short for -o json)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Show the request line, status, latency and retries on stderr (never the API key)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Show the request line, status, latency and retries on stderr (never the API key)')
            [CompletionResult]::new('--demo', '--demo', [CompletionResultType]::ParameterName, 'Run against a built-in simulator on a loopback port: no configuration needed')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'smsstat;completions' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'smsstat;man' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'smsstat;help' {
            [CompletionResult]::new('sms', 'sms', [CompletionResultType]::ParameterValue, 'Delivery status of SMS messages by their numeric ID')
            [CompletionResult]::new('sms-ref', 'sms-ref', [CompletionResultType]::ParameterValue, 'Delivery status of SMS messages by the client''s reference')
            [CompletionResult]::new('task', 'task', [CompletionResultType]::ParameterValue, 'Aggregate counters of multi-recipient SMS tasks')
            [CompletionResult]::new('hlr', 'hlr', [CompletionResultType]::ParameterValue, 'Result of HLR requests (phone-number lookups) by their ID')
            [CompletionResult]::new('hlr-ref', 'hlr-ref', [CompletionResultType]::ParameterValue, 'Result of HLR requests by the client''s reference')
            [CompletionResult]::new('sim', 'sim', [CompletionResultType]::ParameterValue, 'Serve the whole status API on loopback with simulated data (until Ctrl-C)')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Inspect the settings: where each one comes from (flag, environment, profile, file)')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check that this setup can work: settings, name, connection, TLS, the key, latency, routes and proxy, step by step (exit: the first failing step''s code)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script to stdout')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page (roff) to stdout')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'smsstat;help;sms' {
            break
        }
        'smsstat;help;sms-ref' {
            break
        }
        'smsstat;help;task' {
            break
        }
        'smsstat;help;hlr' {
            break
        }
        'smsstat;help;hlr-ref' {
            break
        }
        'smsstat;help;sim' {
            break
        }
        'smsstat;help;config' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print every resolved setting, its value and where it came from (the key masked); exit 78 when the settings could not run a lookup')
            break
        }
        'smsstat;help;config;show' {
            break
        }
        'smsstat;help;check' {
            break
        }
        'smsstat;help;completions' {
            break
        }
        'smsstat;help;man' {
            break
        }
        'smsstat;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
