module contention-lab/gc-go

go 1.19
