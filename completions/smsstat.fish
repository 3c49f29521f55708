complete --keep-order --exclusive --command smsstat --arguments "(COMPLETE=fish smsstat -- (commandline --current-process --tokenize --cut-at-cursor) (commandline --current-token))"
