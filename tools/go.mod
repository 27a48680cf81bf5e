module docsuite/tools

go 1.26.0

require docsuite/pkg v0.0.0

require gopkg.in/yaml.v3 v3.0.1

replace docsuite/pkg => ../pkg
