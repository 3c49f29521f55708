# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_smsstat_global_optspecs
    string join \n base-url= api-key= api-key-file= api-key-header= timeout= retries= paths= json o/output= fields= field= normalize j/jobs= max-body= ca-cert= v/verbose color= demo mask-msisdn config= profile= wait wait-timeout= interval= until= expect= expect-delivered= follow rate= keep-going raw-cells no-headers q/quiet junit= h/help V/version
end

function __fish_smsstat_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_smsstat_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_smsstat_using_subcommand
    set -l cmd (__fish_smsstat_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c smsstat -n "__fish_smsstat_needs_command" -l base-url -d 'Base URL of the service, e.g. https://gateway.example/rest' -r
complete -c smsstat -n "__fish_smsstat_needs_command" -l api-key -d 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)' -r
complete -c smsstat -n "__fish_smsstat_needs_command" -l api-key-file -d 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed' -r -F
complete -c smsstat -n "__fish_smsstat_needs_command" -l api-key-header -d 'Name of the request header that carries the API key [default: X-API-KEY]' -r
complete -c smsstat -n "__fish_smsstat_needs_command" -l timeout -d 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]' -r
complete -c smsstat -n "__fish_smsstat_needs_command" -l retries -d 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]' -r
complete -c smsstat -n "__fish_smsstat_needs_command" -l paths -d 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)' -r -f -a "auto\t''
explicit\t''
short\t''"
complete -c smsstat -n "__fish_smsstat_needs_command" -s o -l output -d 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]' -r -f -a "table\t''
json\t''
csv\t''
tsv\t''
report\t''
report-json\t''
report-md\t''"
complete -c smsstat -n "__fish_smsstat_needs_command" -l fields -d 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records' -r
complete -c smsstat -n "__fish_smsstat_needs_command" -l field -d 'Print only this field\'s bare value, one line per lookup' -r
complete -c smsstat -n "__fish_smsstat_needs_command" -s j -l jobs -d 'How many lookups run at once [default: 8]' -r
complete -c smsstat -n "__fish_smsstat_needs_command" -l max-body -d 'Largest answer body accepted, in bytes [default: 4194304]' -r
complete -c smsstat -n "__fish_smsstat_needs_command" -l ca-cert -d 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on' -r -F
complete -c smsstat -n "__fish_smsstat_needs_command" -l color -d 'When to colour the output (NO_COLOR in the environment means never)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c smsstat -n "__fish_smsstat_needs_command" -l config -d 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)' -r -F
complete -c smsstat -n "__fish_smsstat_needs_command" -l profile -d 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)' -r
complete -c smsstat -n "__fish_smsstat_needs_command" -l wait-timeout -d 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]' -r
complete -c smsstat -n "__fish_smsstat_needs_command" -l interval -d 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]' -r
complete -c smsstat -n "__fish_smsstat_needs_command" -l until -d 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike' -r
complete -c smsstat -n "__fish_smsstat_needs_command" -l expect -d 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending' -r
complete -c smsstat -n "__fish_smsstat_needs_command" -l expect-delivered -d 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it' -r
complete -c smsstat -n "__fish_smsstat_needs_command" -l rate -d 'At most N requests per second (N/s) or per minute (N/m) across all lookups, polls and retries included, e.g. 50/s or 600/m' -r
complete -c smsstat -n "__fish_smsstat_needs_command" -l junit -d 'Also write a JUnit XML file: one test case per lookup, a failure for each failed lookup or unmet expectation (for CI test reports); next to any output format' -r -F
complete -c smsstat -n "__fish_smsstat_needs_command" -l json -d 'Print the service\'s JSON, one compact line per lookup (short for -o json)'
complete -c smsstat -n "__fish_smsstat_needs_command" -l normalize -d 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)'
complete -c smsstat -n "__fish_smsstat_needs_command" -s v -l verbose -d 'Show the request line, status, latency and retries on stderr (never the API key)'
complete -c smsstat -n "__fish_smsstat_needs_command" -l demo -d 'Run against a built-in simulator on a loopback port: no configuration needed'
complete -c smsstat -n "__fish_smsstat_needs_command" -l mask-msisdn -d 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67'
complete -c smsstat -n "__fish_smsstat_needs_command" -l wait -d 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it'
complete -c smsstat -n "__fish_smsstat_needs_command" -l follow -d 'With --wait: print one JSON line per observed change (each with `kind` and `query`), and a failure as soon as it happens, instead of the final records only'
complete -c smsstat -n "__fish_smsstat_needs_command" -l keep-going -d 'Look up every value even after the service refused the account (error 1 or 2) or every connection was refused (by default the rest are "not looked up")'
complete -c smsstat -n "__fish_smsstat_needs_command" -l raw-cells -d 'CSV/TSV: print cells exactly as sent, without the \' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)'
complete -c smsstat -n "__fish_smsstat_needs_command" -l no-headers -d 'Leave out the header line of table, CSV and TSV output (for pipelines)'
complete -c smsstat -n "__fish_smsstat_needs_command" -s q -l quiet -d 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay'
complete -c smsstat -n "__fish_smsstat_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c smsstat -n "__fish_smsstat_needs_command" -s V -l version -d 'Print version'
complete -c smsstat -n "__fish_smsstat_needs_command" -f -a "sms" -d 'Delivery status of SMS messages by their numeric ID'
complete -c smsstat -n "__fish_smsstat_needs_command" -f -a "sms-ref" -d 'Delivery status of SMS messages by the client\'s reference'
complete -c smsstat -n "__fish_smsstat_needs_command" -f -a "task" -d 'Aggregate counters of multi-recipient SMS tasks'
complete -c smsstat -n "__fish_smsstat_needs_command" -f -a "hlr" -d 'Result of HLR requests (phone-number lookups) by their ID'
complete -c smsstat -n "__fish_smsstat_needs_command" -f -a "hlr-ref" -d 'Result of HLR requests by the client\'s reference'
complete -c smsstat -n "__fish_smsstat_needs_command" -f -a "sim" -d 'Serve the whole status API on loopback with simulated data (until Ctrl-C)'
complete -c smsstat -n "__fish_smsstat_needs_command" -f -a "config" -d 'Inspect the settings: where each one comes from (flag, environment, profile, file)'
complete -c smsstat -n "__fish_smsstat_needs_command" -f -a "check" -d 'Check that this setup can work: settings, name, connection, TLS, the key, latency, routes and proxy, step by step (exit: the first failing step\'s code)'
complete -c smsstat -n "__fish_smsstat_needs_command" -f -a "completions" -d 'Print a shell completion script to stdout'
complete -c smsstat -n "__fish_smsstat_needs_command" -f -a "man" -d 'Print the man page (roff) to stdout'
complete -c smsstat -n "__fish_smsstat_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l base-url -d 'Base URL of the service, e.g. https://gateway.example/rest' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l api-key -d 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l api-key-file -d 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l api-key-header -d 'Name of the request header that carries the API key [default: X-API-KEY]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l timeout -d 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l retries -d 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l paths -d 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)' -r -f -a "auto\t''
explicit\t''
short\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -s o -l output -d 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]' -r -f -a "table\t''
json\t''
csv\t''
tsv\t''
report\t''
report-json\t''
report-md\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l fields -d 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l field -d 'Print only this field\'s bare value, one line per lookup' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -s j -l jobs -d 'How many lookups run at once [default: 8]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l max-body -d 'Largest answer body accepted, in bytes [default: 4194304]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l ca-cert -d 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l color -d 'When to colour the output (NO_COLOR in the environment means never)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l config -d 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l profile -d 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l wait-timeout -d 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l interval -d 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l until -d 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l expect -d 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l expect-delivered -d 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l rate -d 'At most N requests per second (N/s) or per minute (N/m) across all lookups, polls and retries included, e.g. 50/s or 600/m' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l junit -d 'Also write a JUnit XML file: one test case per lookup, a failure for each failed lookup or unmet expectation (for CI test reports); next to any output format' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l json -d 'Print the service\'s JSON, one compact line per lookup (short for -o json)'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l normalize -d 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -s v -l verbose -d 'Show the request line, status, latency and retries on stderr (never the API key)'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l demo -d 'Run against a built-in simulator on a loopback port: no configuration needed'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l mask-msisdn -d 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l wait -d 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l follow -d 'With --wait: print one JSON line per observed change (each with `kind` and `query`), and a failure as soon as it happens, instead of the final records only'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l keep-going -d 'Look up every value even after the service refused the account (error 1 or 2) or every connection was refused (by default the rest are "not looked up")'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l raw-cells -d 'CSV/TSV: print cells exactly as sent, without the \' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -l no-headers -d 'Leave out the header line of table, CSV and TSV output (for pipelines)'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -s q -l quiet -d 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms" -s h -l help -d 'Print help'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l base-url -d 'Base URL of the service, e.g. https://gateway.example/rest' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l api-key -d 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l api-key-file -d 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l api-key-header -d 'Name of the request header that carries the API key [default: X-API-KEY]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l timeout -d 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l retries -d 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l paths -d 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)' -r -f -a "auto\t''
explicit\t''
short\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -s o -l output -d 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]' -r -f -a "table\t''
json\t''
csv\t''
tsv\t''
report\t''
report-json\t''
report-md\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l fields -d 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l field -d 'Print only this field\'s bare value, one line per lookup' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -s j -l jobs -d 'How many lookups run at once [default: 8]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l max-body -d 'Largest answer body accepted, in bytes [default: 4194304]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l ca-cert -d 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l color -d 'When to colour the output (NO_COLOR in the environment means never)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l config -d 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l profile -d 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l wait-timeout -d 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l interval -d 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l until -d 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l expect -d 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l expect-delivered -d 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l rate -d 'At most N requests per second (N/s) or per minute (N/m) across all lookups, polls and retries included, e.g. 50/s or 600/m' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l junit -d 'Also write a JUnit XML file: one test case per lookup, a failure for each failed lookup or unmet expectation (for CI test reports); next to any output format' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l json -d 'Print the service\'s JSON, one compact line per lookup (short for -o json)'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l normalize -d 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -s v -l verbose -d 'Show the request line, status, latency and retries on stderr (never the API key)'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l demo -d 'Run against a built-in simulator on a loopback port: no configuration needed'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l mask-msisdn -d 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l wait -d 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l follow -d 'With --wait: print one JSON line per observed change (each with `kind` and `query`), and a failure as soon as it happens, instead of the final records only'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l keep-going -d 'Look up every value even after the service refused the account (error 1 or 2) or every connection was refused (by default the rest are "not looked up")'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l raw-cells -d 'CSV/TSV: print cells exactly as sent, without the \' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -l no-headers -d 'Leave out the header line of table, CSV and TSV output (for pipelines)'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -s q -l quiet -d 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay'
complete -c smsstat -n "__fish_smsstat_using_subcommand sms-ref" -s h -l help -d 'Print help'
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l base-url -d 'Base URL of the service, e.g. https://gateway.example/rest' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l api-key -d 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l api-key-file -d 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l api-key-header -d 'Name of the request header that carries the API key [default: X-API-KEY]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l timeout -d 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l retries -d 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l paths -d 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)' -r -f -a "auto\t''
explicit\t''
short\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -s o -l output -d 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]' -r -f -a "table\t''
json\t''
csv\t''
tsv\t''
report\t''
report-json\t''
report-md\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l fields -d 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l field -d 'Print only this field\'s bare value, one line per lookup' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -s j -l jobs -d 'How many lookups run at once [default: 8]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l max-body -d 'Largest answer body accepted, in bytes [default: 4194304]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l ca-cert -d 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l color -d 'When to colour the output (NO_COLOR in the environment means never)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l config -d 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l profile -d 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l wait-timeout -d 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l interval -d 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l until -d 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l expect -d 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l expect-delivered -d 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l rate -d 'At most N requests per second (N/s) or per minute (N/m) across all lookups, polls and retries included, e.g. 50/s or 600/m' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l junit -d 'Also write a JUnit XML file: one test case per lookup, a failure for each failed lookup or unmet expectation (for CI test reports); next to any output format' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l json -d 'Print the service\'s JSON, one compact line per lookup (short for -o json)'
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l normalize -d 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)'
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -s v -l verbose -d 'Show the request line, status, latency and retries on stderr (never the API key)'
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l demo -d 'Run against a built-in simulator on a loopback port: no configuration needed'
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l mask-msisdn -d 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67'
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l wait -d 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it'
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l follow -d 'With --wait: print one JSON line per observed change (each with `kind` and `query`), and a failure as soon as it happens, instead of the final records only'
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l keep-going -d 'Look up every value even after the service refused the account (error 1 or 2) or every connection was refused (by default the rest are "not looked up")'
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l raw-cells -d 'CSV/TSV: print cells exactly as sent, without the \' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)'
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -l no-headers -d 'Leave out the header line of table, CSV and TSV output (for pipelines)'
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -s q -l quiet -d 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay'
complete -c smsstat -n "__fish_smsstat_using_subcommand task" -s h -l help -d 'Print help'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l base-url -d 'Base URL of the service, e.g. https://gateway.example/rest' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l api-key -d 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l api-key-file -d 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l api-key-header -d 'Name of the request header that carries the API key [default: X-API-KEY]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l timeout -d 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l retries -d 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l paths -d 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)' -r -f -a "auto\t''
explicit\t''
short\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -s o -l output -d 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]' -r -f -a "table\t''
json\t''
csv\t''
tsv\t''
report\t''
report-json\t''
report-md\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l fields -d 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l field -d 'Print only this field\'s bare value, one line per lookup' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -s j -l jobs -d 'How many lookups run at once [default: 8]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l max-body -d 'Largest answer body accepted, in bytes [default: 4194304]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l ca-cert -d 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l color -d 'When to colour the output (NO_COLOR in the environment means never)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l config -d 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l profile -d 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l wait-timeout -d 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l interval -d 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l until -d 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l expect -d 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l expect-delivered -d 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l rate -d 'At most N requests per second (N/s) or per minute (N/m) across all lookups, polls and retries included, e.g. 50/s or 600/m' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l junit -d 'Also write a JUnit XML file: one test case per lookup, a failure for each failed lookup or unmet expectation (for CI test reports); next to any output format' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l json -d 'Print the service\'s JSON, one compact line per lookup (short for -o json)'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l normalize -d 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -s v -l verbose -d 'Show the request line, status, latency and retries on stderr (never the API key)'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l demo -d 'Run against a built-in simulator on a loopback port: no configuration needed'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l mask-msisdn -d 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l wait -d 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l follow -d 'With --wait: print one JSON line per observed change (each with `kind` and `query`), and a failure as soon as it happens, instead of the final records only'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l keep-going -d 'Look up every value even after the service refused the account (error 1 or 2) or every connection was refused (by default the rest are "not looked up")'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l raw-cells -d 'CSV/TSV: print cells exactly as sent, without the \' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -l no-headers -d 'Leave out the header line of table, CSV and TSV output (for pipelines)'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -s q -l quiet -d 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr" -s h -l help -d 'Print help'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l base-url -d 'Base URL of the service, e.g. https://gateway.example/rest' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l api-key -d 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l api-key-file -d 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l api-key-header -d 'Name of the request header that carries the API key [default: X-API-KEY]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l timeout -d 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l retries -d 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l paths -d 'Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto (explicit, then short when the explicit route does not exist)' -r -f -a "auto\t''
explicit\t''
short\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -s o -l output -d 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]' -r -f -a "table\t''
json\t''
csv\t''
tsv\t''
report\t''
report-json\t''
report-md\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l fields -d 'Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or the keys kept in JSON records' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l field -d 'Print only this field\'s bare value, one line per lookup' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -s j -l jobs -d 'How many lookups run at once [default: 8]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l max-body -d 'Largest answer body accepted, in bytes [default: 4194304]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l ca-cert -d 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l color -d 'When to colour the output (NO_COLOR in the environment means never)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l config -d 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l profile -d 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l wait-timeout -d 'How long --wait waits at most: 90, 500ms, 2m [default: 10m]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l interval -d 'Pause between polls of --wait, at least 100ms (longer after errors, or when the server asks with Retry-After) [default: 2s]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l until -d 'Statuses that count as final (SMS, HLR), replacing the built-in pending lists, for --wait and --expect alike' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l expect -d 'Succeed only when the final status is one of these (SMS, HLR): exit 80 when final and different, 81 when still pending' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l expect-delivered -d 'Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO (tasks), e.g. 0.95: exit 80 below it' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l rate -d 'At most N requests per second (N/s) or per minute (N/m) across all lookups, polls and retries included, e.g. 50/s or 600/m' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l junit -d 'Also write a JUnit XML file: one test case per lookup, a failure for each failed lookup or unmet expectation (for CI test reports); next to any output format' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l json -d 'Print the service\'s JSON, one compact line per lookup (short for -o json)'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l normalize -d 'With JSON output: typed, uniform records (numbers as numbers, error always present, ported/roaming as booleans, plus kind and query)'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -s v -l verbose -d 'Show the request line, status, latency and retries on stderr (never the API key)'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l demo -d 'Run against a built-in simulator on a loopback port: no configuration needed'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l mask-msisdn -d 'Mask phone numbers (msisdn) in every output format, except the country code and the last 2 digits: 380501234567 becomes 380*******67'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l wait -d 'Poll until each record is final (SMS/HLR status no longer pending, task with nothing pending), then print it'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l follow -d 'With --wait: print one JSON line per observed change (each with `kind` and `query`), and a failure as soon as it happens, instead of the final records only'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l keep-going -d 'Look up every value even after the service refused the account (error 1 or 2) or every connection was refused (by default the rest are "not looked up")'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l raw-cells -d 'CSV/TSV: print cells exactly as sent, without the \' put before a cell that starts with = + - @ tab or CR and is not a number (spreadsheet formula injection)'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -l no-headers -d 'Leave out the header line of table, CSV and TSV output (for pipelines)'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -s q -l quiet -d 'Print no warnings, no per-lookup lines and no summary on stderr; errors that end the run and the exit code stay'
complete -c smsstat -n "__fish_smsstat_using_subcommand hlr-ref" -s h -l help -d 'Print help'
complete -c smsstat -n "__fish_smsstat_using_subcommand sim" -l listen -d 'Address to listen on (port 0 picks a free port)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sim" -l settle -d 'Time after start by which every record has reached its final state (0: final at once)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sim" -l api-key -d 'Require this key in the X-API-KEY header (error 1 otherwise); by default any key or none is accepted' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sim" -l latency -d 'Delay added before every answer' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sim" -l fail-rate -d 'Fraction of requests answered with 503 and an HTML body (0.0 to 1.0)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sim" -l seed -d 'Seed of the fault sequence (fail-rate decisions)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sim" -l string-numbers -d 'Send numeric fields as JSON strings ("price": "0.23")' -r -f -a "mixed\t'Per record, decided by its ID (the default: realistic variety)'
always\t'On every record'
never\t'On no record'"
complete -c smsstat -n "__fish_smsstat_using_subcommand sim" -l omit-error -d 'Leave the `error` field out of successful answers' -r -f -a "mixed\t'Per record, decided by its ID (the default: realistic variety)'
always\t'On every record'
never\t'On no record'"
complete -c smsstat -n "__fish_smsstat_using_subcommand sim" -l extra-fields -d 'Add fields the spec does not list (id on SMS; name_en, brand, name on HLR)' -r -f -a "mixed\t'Per record, decided by its ID (the default: realistic variety)'
always\t'On every record'
never\t'On no record'"
complete -c smsstat -n "__fish_smsstat_using_subcommand sim" -l no-errors-text -d 'Add `"errorDescription": "No errors"` to successful answers that carry `error`' -r -f -a "mixed\t'Per record, decided by its ID (the default: realistic variety)'
always\t'On every record'
never\t'On no record'"
complete -c smsstat -n "__fish_smsstat_using_subcommand sim" -l rate-limit -d 'Answer more than N requests a second with 429 and `Retry-After`' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand sim" -l task-counters -d 'Shape of task records: `spec` (sent is the total) or `v1` (adds total, queued, accepted, enroute)' -r -f -a "spec\t'The spec\'s counters: sent, delivered, undeliverable, expired, unknown'
v1\t'The v1 variant\'s: total and the in-flight queued, accepted, enroute too'"
complete -c smsstat -n "__fish_smsstat_using_subcommand sim" -l errors-with-200 -d 'Answer service errors with HTTP 200 and the JSON error body, as the live service does (unknown paths then answer error 4)'
complete -c smsstat -n "__fish_smsstat_using_subcommand sim" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and not __fish_seen_subcommand_from show help" -l base-url -d 'Base URL of the service, e.g. https://gateway.example/rest' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and not __fish_seen_subcommand_from show help" -l api-key -d 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and not __fish_seen_subcommand_from show help" -l api-key-file -d 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and not __fish_seen_subcommand_from show help" -l api-key-header -d 'Name of the request header that carries the API key [default: X-API-KEY]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and not __fish_seen_subcommand_from show help" -l timeout -d 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and not __fish_seen_subcommand_from show help" -l retries -d 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and not __fish_seen_subcommand_from show help" -s o -l output -d 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]' -r -f -a "table\t''
json\t''
csv\t''
tsv\t''
report\t''
report-json\t''
report-md\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and not __fish_seen_subcommand_from show help" -l ca-cert -d 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and not __fish_seen_subcommand_from show help" -l config -d 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and not __fish_seen_subcommand_from show help" -l profile -d 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and not __fish_seen_subcommand_from show help" -l json -d 'Print the service\'s JSON, one compact line per lookup (short for -o json)'
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and not __fish_seen_subcommand_from show help" -l demo -d 'Run against a built-in simulator on a loopback port: no configuration needed'
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and not __fish_seen_subcommand_from show help" -s h -l help -d 'Print help'
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and not __fish_seen_subcommand_from show help" -f -a "show" -d 'Print every resolved setting, its value and where it came from (the key masked); exit 78 when the settings could not run a lookup'
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and not __fish_seen_subcommand_from show help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and __fish_seen_subcommand_from show" -l base-url -d 'Base URL of the service, e.g. https://gateway.example/rest' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and __fish_seen_subcommand_from show" -l api-key -d 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and __fish_seen_subcommand_from show" -l api-key-file -d 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and __fish_seen_subcommand_from show" -l api-key-header -d 'Name of the request header that carries the API key [default: X-API-KEY]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and __fish_seen_subcommand_from show" -l timeout -d 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and __fish_seen_subcommand_from show" -l retries -d 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and __fish_seen_subcommand_from show" -s o -l output -d 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]' -r -f -a "table\t''
json\t''
csv\t''
tsv\t''
report\t''
report-json\t''
report-md\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and __fish_seen_subcommand_from show" -l ca-cert -d 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and __fish_seen_subcommand_from show" -l config -d 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and __fish_seen_subcommand_from show" -l profile -d 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and __fish_seen_subcommand_from show" -l json -d 'Print the service\'s JSON, one compact line per lookup (short for -o json)'
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and __fish_seen_subcommand_from show" -l demo -d 'Run against a built-in simulator on a loopback port: no configuration needed'
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print every resolved setting, its value and where it came from (the key masked); exit 78 when the settings could not run a lookup'
complete -c smsstat -n "__fish_smsstat_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smsstat -n "__fish_smsstat_using_subcommand check" -l base-url -d 'Base URL of the service, e.g. https://gateway.example/rest' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand check" -l api-key -d 'API key sent with every request (prefer the SMSSTAT_API_KEY environment variable: a command-line key is visible to other users in the process list)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand check" -l api-key-file -d 'File holding the API key (Docker and Kubernetes secrets are files): a regular file of at most 1 MiB, surrounding whitespace trimmed' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand check" -l api-key-header -d 'Name of the request header that carries the API key [default: X-API-KEY]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand check" -l timeout -d 'Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand check" -l retries -d 'How often a transient failure (refused, reset, timeout, 429/502/503/504) is retried, 0 to 20 [default: 2]' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand check" -s o -l output -d 'Output format: table, json (one line per lookup), csv, tsv, or one report over the batch: report (terminal), report-json, report-md (Markdown for CI job summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]' -r -f -a "table\t''
json\t''
csv\t''
tsv\t''
report\t''
report-json\t''
report-md\t''"
complete -c smsstat -n "__fish_smsstat_using_subcommand check" -l ca-cert -d 'PEM file of the CA certificates to trust for https, instead of the built-in roots (for a gateway behind a private CA); verification is always on' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand check" -l config -d 'Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)' -r -F
complete -c smsstat -n "__fish_smsstat_using_subcommand check" -l profile -d 'Profile of the config file to use ([profiles.NAME]; without it, `default` if the file has one)' -r
complete -c smsstat -n "__fish_smsstat_using_subcommand check" -l json -d 'Print the service\'s JSON, one compact line per lookup (short for -o json)'
complete -c smsstat -n "__fish_smsstat_using_subcommand check" -s v -l verbose -d 'Show the request line, status, latency and retries on stderr (never the API key)'
complete -c smsstat -n "__fish_smsstat_using_subcommand check" -l demo -d 'Run against a built-in simulator on a loopback port: no configuration needed'
complete -c smsstat -n "__fish_smsstat_using_subcommand check" -s h -l help -d 'Print help'
complete -c smsstat -n "__fish_smsstat_using_subcommand completions" -s h -l help -d 'Print help'
complete -c smsstat -n "__fish_smsstat_using_subcommand man" -s h -l help -d 'Print help'
complete -c smsstat -n "__fish_smsstat_using_subcommand help; and not __fish_seen_subcommand_from sms sms-ref task hlr hlr-ref sim config check completions man help" -f -a "sms" -d 'Delivery status of SMS messages by their numeric ID'
complete -c smsstat -n "__fish_smsstat_using_subcommand help; and not __fish_seen_subcommand_from sms sms-ref task hlr hlr-ref sim config check completions man help" -f -a "sms-ref" -d 'Delivery status of SMS messages by the client\'s reference'
complete -c smsstat -n "__fish_smsstat_using_subcommand help; and not __fish_seen_subcommand_from sms sms-ref task hlr hlr-ref sim config check completions man help" -f -a "task" -d 'Aggregate counters of multi-recipient SMS tasks'
complete -c smsstat -n "__fish_smsstat_using_subcommand help; and not __fish_seen_subcommand_from sms sms-ref task hlr hlr-ref sim config check completions man help" -f -a "hlr" -d 'Result of HLR requests (phone-number lookups) by their ID'
complete -c smsstat -n "__fish_smsstat_using_subcommand help; and not __fish_seen_subcommand_from sms sms-ref task hlr hlr-ref sim config check completions man help" -f -a "hlr-ref" -d 'Result of HLR requests by the client\'s reference'
complete -c smsstat -n "__fish_smsstat_using_subcommand help; and not __fish_seen_subcommand_from sms sms-ref task hlr hlr-ref sim config check completions man help" -f -a "sim" -d 'Serve the whole status API on loopback with simulated data (until Ctrl-C)'
complete -c smsstat -n "__fish_smsstat_using_subcommand help; and not __fish_seen_subcommand_from sms sms-ref task hlr hlr-ref sim config check completions man help" -f -a "config" -d 'Inspect the settings: where each one comes from (flag, environment, profile, file)'
complete -c smsstat -n "__fish_smsstat_using_subcommand help; and not __fish_seen_subcommand_from sms sms-ref task hlr hlr-ref sim config check completions man help" -f -a "check" -d 'Check that this setup can work: settings, name, connection, TLS, the key, latency, routes and proxy, step by step (exit: the first failing step\'s code)'
complete -c smsstat -n "__fish_smsstat_using_subcommand help; and not __fish_seen_subcommand_from sms sms-ref task hlr hlr-ref sim config check completions man help" -f -a "completions" -d 'Print a shell completion script to stdout'
complete -c smsstat -n "__fish_smsstat_using_subcommand help; and not __fish_seen_subcommand_from sms sms-ref task hlr hlr-ref sim config check completions man help" -f -a "man" -d 'Print the man page (roff) to stdout'
complete -c smsstat -n "__fish_smsstat_using_subcommand help; and not __fish_seen_subcommand_from sms sms-ref task hlr hlr-ref sim config check completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smsstat -n "__fish_smsstat_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "show" -d 'Print every resolved setting, its value and where it came from (the key masked); exit 78 when the settings could not run a lookup'
