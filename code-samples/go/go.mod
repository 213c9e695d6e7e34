module proxy-demo

go 1.18
