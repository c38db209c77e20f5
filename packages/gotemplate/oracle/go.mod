module svc/gotemplate-oracle

go 1.19
