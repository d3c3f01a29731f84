module boot.parley.local/termguard

go 1.26
