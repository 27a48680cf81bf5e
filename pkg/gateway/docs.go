package gateway

import (
	_ "embed"
	"net/http"

	"github.com/gin-gonic/gin"

	"docsuite/pkg/apierr"
)

// Swagger UI 5.35.0 from the npm package swagger-ui-dist (Apache-2.0, see
// swaggerui/LICENSE), served from the binary: the page works with no
// network.
var (
	//go:embed swaggerui/swagger-ui-bundle.js
	swaggerJS []byte
	//go:embed swaggerui/swagger-ui.css
	swaggerCSS []byte
)

const docsPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Document classification service: API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true});</script>
</body></html>`

func (s *Server) handleDocs(c *gin.Context) {
	c.Data(http.StatusOK, "text/html; charset=utf-8", []byte(docsPage))
}

func (s *Server) handleDocsAsset(c *gin.Context) {
	c.Header("Cache-Control", "public, max-age=86400")
	switch c.Param("asset") {
	case "swagger-ui-bundle.js":
		c.Data(http.StatusOK, "application/javascript", swaggerJS)
	case "swagger-ui.css":
		c.Data(http.StatusOK, "text/css", swaggerCSS)
	default:
		s.fail(c, apierr.New(apierr.PathNotFound, ""))
	}
}
