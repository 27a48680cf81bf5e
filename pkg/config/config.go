// Package config holds one configuration struct per role, filled by viper
// from built-in defaults, then an env file, then the environment (later
// wins). Every field names its variable, default and meaning in struct
// tags, so the env template, the docs and --check-config come from the same
// source as the code.
package config

import (
	"time"
)

// Common is what every role reads.
type Common struct {
	LogLevel        string `env:"LOGURU_LEVEL" default:"INFO" doc:"Log level: TRACE, DEBUG, INFO, SUCCESS, WARNING, ERROR, CRITICAL."`
	LogColorize     bool   `env:"LOGURU_COLORIZE" default:"false" doc:"true: human-readable text lines (time=... level=... msg=... key=value), the level coloured by ANSI escape sequences written as raw bytes, for a terminal (docker compose logs shows the colours; less -R does for a file); false: one JSON object per line, never coloured, for log shippers."`
	NATSURL         string `env:"NATS_URL" default:"nats://127.0.0.1:4222" doc:"NATS server(s), comma-separated. Ignored by the all-in-one, which embeds its own."`
	NATSUser        string `env:"NATS_USER" default:"" doc:"User name the role gives NATS (empty: none, for a NATS server without authentication). Under docker compose NATS requires it: the NATS server's user of every role but the license daemon, which docker-compose.yml gives its own user (license, NATS_LICENSE_PASSWORD) so that no other client may write the license verdict; the all-in-one's embedded NATS server requires it, with NATS_PASSWORD, when set. For the shipped NATS configuration (deploy/nats/nats.conf reads it from its environment) it must start with a letter and hold only letters, digits, '-', '_' and '.', and not be license."`
	NATSPassword    string `env:"NATS_PASSWORD" default:"" secret:"true" doc:"Password of NATS_USER (set both or neither; NATS_URL carrying user:password@ instead is refused with them). For the shipped NATS configuration the same characters as NATS_USER, e.g. made by echo p$(openssl rand -hex 24)."`
	PipelineTimeout int    `env:"PIPELINE_TIMEOUT" default:"120" doc:"Seconds one request may take end to end (at most 86400); stages share this budget. Under docker compose, raise DOCSUITE_STOP_GRACE_PERIOD with it (to this plus 10 s) so that stopping a container lets its running requests finish; the shipped nginx waits up to an hour for a gateway, so keep this under 3600."`
	CompletedTTL    int    `env:"COMPLETED_TASK_TTL_SECONDS" default:"3600" doc:"Seconds an async result stays readable after completion (at most a year, 31622400)."`
	MetricsAddr     string `env:"METRICS_ADDR" default:"" roles:"cropper,classifier,orienter,ocr,fraud,license,janitor,allinone" doc:"Internal address for /metrics and /healthz of the stage workers, the license daemon, the janitor and the all-in-one, and for pprof of all but the license daemon (empty: off). The gateway serves /metrics on its own HTTP_ADDR and does not read this."`
	Store           Store  `roles:"gateway,cropper,classifier,orienter,ocr,fraud,janitor,allinone"`
}

// Timeout is PIPELINE_TIMEOUT as a duration.
func (c Common) Timeout() time.Duration { return time.Duration(c.PipelineTimeout) * time.Second }

// TTL is COMPLETED_TASK_TTL_SECONDS as a duration.
func (c Common) TTL() time.Duration { return time.Duration(c.CompletedTTL) * time.Second }

// Store selects and configures the object store.
type Store struct {
	Kind          string `env:"STORE_KIND" default:"folder" doc:"folder (a local directory) or minio (S3 API through minio-go)."`
	Dir           string `env:"STORE_DIR" default:"data/objects" doc:"Directory of the folder store."`
	MinioEndpoint string `env:"MINIO_ENDPOINT" default:"minio:9000" doc:"host:port of the MinIO/S3 server."`
	MinioAccess   string `env:"MINIO_ACCESS_KEY" default:"" secret:"true" doc:"MinIO access key."`
	MinioSecret   string `env:"MINIO_SECRET_KEY" default:"" secret:"true" doc:"MinIO secret key."`
	MinioBucket   string `env:"MINIO_BUCKET" default:"docsuite" doc:"Bucket for inputs, intermediates and results (created when missing)."`
	MinioSSL      bool   `env:"MINIO_USE_SSL" default:"false" doc:"Use HTTPS to reach MinIO."`
}

// Models is what model-running roles read.
type Models struct {
	AllowGPU      bool   `env:"ALLOW_GPU" default:"false" doc:"true: use the CUDA execution provider when present (falls back to CPU and says so)."`
	Dir           string `env:"MODELS_DIR" default:"models" doc:"Directory holding manifest.json and the ONNX models."`
	ONNXRuntime   string `env:"ONNXRUNTIME_LIB" default:".cache/onnxruntime/libonnxruntime.so.1" doc:"Path of the ONNX Runtime shared library."`
	Threads       int    `env:"MODEL_THREADS" default:"1" doc:"Intra-op threads per model session (1 to 256)."`
	TextEvidence  bool   `env:"TEXT_EVIDENCE" default:"true" doc:"true: the classifier and orienter read each crop's text lines and machine-readable zone with PP-OCR (the zone not on a crop whose picture rules out every type that carries one) (the classifier also a Russian passport's series and number along the right edge), and the classifier the printed words of its tallest lines with Tesseract (see PRINTED_WORDS; far more accurate on real documents; the classify stage then takes 0.4 to 0.7 s a document on 2 cores, by machine, see docs/benchmarks.md); false: the pictures alone decide (about 20 ms a document, the throughput of earlier releases)."`
	PrintedWords  bool   `env:"PRINTED_WORDS" default:"true" doc:"With TEXT_EVIDENCE=true: true also reads the printed words of each crop's ten tallest lines with Tesseract and weighs them against the picture (a crop with eight or more lines and nothing legible in Russian or English (at most one legible word, or two making under a fifth of the words read) is also read with Tesseract's Japanese model, when tesseract-ocr-jpn is installed: a Japanese licence's captions) (when they were added, type top-1 on the real test files went from 44.7 % without to 68.3 % with; today's figure with them is in docs/accuracy.md; about 0.25 s more a document on 2 cores, see docs/models.md; not read on a document whose machine-readable zone verifies and names its state, which settles the type); false: text lines and zone only."`
	LogWords      bool   `env:"LOG_WORDS" default:"false" doc:"Diagnosis only: true adds the printed words the classifier read on each crop to its DEBUG line \"classify: answer\" (seen with LOGURU_LEVEL=DEBUG), to tell why a document was given a wrong type. The words are the document's own text, personal data (names, numbers, addresses): leave false in production."`
	AllowNoAVX512 bool   `env:"DEV_ALLOW_NO_AVX512" default:"false" doc:"Development machines only: start even though the CPU lacks AVX-512 (unsupported in production). make run, make eval and make bench's all-in-one run set it, with a notice, where the CPU lacks AVX-512 (scripts/dev-avx512.sh); the topology test and make bench's topology run set it for their processes on any machine."`
}

// Worker is what every stage worker reads.
type Worker struct {
	Concurrency int   `env:"WORKER_CONCURRENCY" default:"0" doc:"Requests a worker handles at once, up to 1024 (0: the CPUs the process may use, its container's CPU limit where one is set, as Go's GOMAXPROCS counts them, not the host's cores). The classifier and ocr workers hold a Tesseract engine for each (about 20 MB apiece; the classifier about 35 MB more for each Japanese one, made when a crop first needs it)."`
	PageMemory  int64 `env:"PAGE_MEMORY_BYTES" default:"0" roles:"cropper,ocr,fraud,allinone" doc:"Memory the pages a worker decodes and works on at once may take, in bytes, in the cropper, the ocr worker (fulltext, recognize with mode=recognize_only) and the fraud worker (0: the Go heap's soft limit, GOMEMLIMIT or three quarters of the container's memory limit (3 GiB of the cropper's, ocr's and fraud's 4 GiB in docker-compose.yml), else 2 GiB). The all-in-one's cropper, ocr and fraud share one budget of this size. Each page's share is estimated from its file's header before it is decoded (a 100-megapixel page in the cropper from about 1.0 GB, a baseline 4:2:0 JPEG, to 2.9 GB, a progressive CMYK JPEG; in ocr 1.1 GB more than decoding it takes, in fraud 0.5 GB more); a page that does not fit beside those being worked on waits its turn (logged at DEBUG: page waits for memory), and one larger than the whole budget runs alone, never refused for its size. The limits in docker-compose.yml leave a quarter for ONNX Runtime, OpenCV, Tesseract and the Go runtime."`
}

// Extraction is what the ocr role's recognize method reads to normalise
// fields against outside references.
type Extraction struct {
	SubdivisionDirectory     string `env:"SUBDIVISION_DIRECTORY" default:"" doc:"CSV file of subdivision codes and issuing-authority names (first line code,authority) that extends the shipped directory, its entries winning (use_internal_api=true normalises a passport's issuing_authority by the code read). The shipped directory is the document factory's synthetic one; see docs/accuracy-extraction.md."`
	SubdivisionDirectoryOnly bool   `env:"SUBDIVISION_DIRECTORY_ONLY" default:"false" doc:"true: SUBDIVISION_DIRECTORY replaces the shipped directory instead of extending it."`
	AddressServiceURL        string `env:"ADDRESS_SERVICE_URL" default:"" doc:"Address-normalisation service (normalization_fias=true POSTs {\"query\": address} and takes {\"value\": normalised}); empty: off, normalization_fias is accepted and ignored."`
	AddressServiceTimeoutMS  int    `env:"ADDRESS_SERVICE_TIMEOUT_MS" default:"2000" doc:"Milliseconds one address-service call may take (> 0); a slow or failing service leaves the address as read (logged), never fails the request."`
}

// Gateway is the configuration of the gateway role.
type Gateway struct {
	Common
	HTTPAddr       string `env:"HTTP_ADDR" default:"127.0.0.1:8080" doc:"Address the HTTP API listens on."`
	TLSCertFile    string `env:"TLS_CERT_FILE" default:"" doc:"PEM certificate chain (the server's certificate first, then its intermediates): set with TLS_KEY_FILE, HTTP_ADDR speaks HTTPS only (TLS 1.2 and 1.3, HTTP/1.1; a plain HTTP request is answered 400), for the all-in-one or a gateway reached without nginx; empty: plain HTTP. Both files are read at start (a missing or unreadable file, or a key that does not fit the certificate, stops the role with the reason) and again within a second of either changing, so a renewed certificate needs no restart (replace the key and the certificate, each written beside the old one and renamed over it; until both fit, the previous pair is served). Under docker compose nginx speaks HTTPS instead (DOCSUITE_TLS) and the gateways behind it plain HTTP: docker-compose.yml clears this for them, whatever the env file says."`
	TLSKeyFile     string `env:"TLS_KEY_FILE" default:"" doc:"PEM private key of TLS_CERT_FILE (PKCS #1, PKCS #8 or SEC 1, unencrypted), readable by the role's user."`
	MaxFileBytes   int64  `env:"MAX_FILE_BYTES" default:"31457280" doc:"Largest accepted file (30 MB); larger answers 413. Under docker compose nginx caps the whole request body (the file and its multipart envelope) at 32 MB (33554432 bytes: client_max_body_size in deploy/nginx/docsuite.conf) and answers a larger one itself, with the same JSON 413 (errno 10, its message naming 30 MB whatever this says): raising this needs that line raised with it, 1 MB or more above (2 MB as shipped), and the nginx image rebuilt (docs/operations.md, Scale). Keep UPLOAD_MEMORY_BYTES above it."`
	MinFileBytes   int64  `env:"MIN_FILE_BYTES" default:"1024" doc:"Smallest accepted file (1 KB); smaller answers 415."`
	MaxPages       int    `env:"MAX_PAGES" default:"100" doc:"Most pages per file; more answers 422."`
	MaxPixels      int64  `env:"MAX_PIXELS" default:"100000000" doc:"Most pixels per page (100 MP); more answers 422 before any large allocation."`
	MaxFilePixels  int64  `env:"MAX_FILE_PIXELS" default:"1000000000" doc:"Most pixels of all a file's pages together (1000 MP: a hundred A4 pages at 300 dpi are 870 MP), each page counted as MAX_PIXELS counts it (a PDF page at dpi); more answers 422 (errno 18, its message naming the file's pixels and, for a PDF or DJVU file, the highest dpi at which it fits) from the file's headers, before any page is decoded. A file at the limit took 40 to 65 s of the all-in-one on 2 cores, within the default PIPELINE_TIMEOUT; MAX_PAGES x MAX_PIXELS or more refuses nothing the other two do not, and 100 pages of 100 MP (a TIFF of 23 KB) then held both cores for the whole PIPELINE_TIMEOUT before 503. Lower it with PIPELINE_TIMEOUT, or on slower machines (docs/formats.md, Limits)."`
	PageParallel   int    `env:"PAGE_PARALLELISM" default:"4" doc:"Pages of one file cut out at once (each page's documents are classified as soon as it is cut, at most 8 documents of a file at once)."`
	UploadMemory   int64  `env:"UPLOAD_MEMORY_BYTES" default:"536870912" doc:"Memory the uploads being read may hold at once per gateway (512 MiB), reserved in pieces as their bytes arrive (4 KiB, then twice the last up to 256 KiB, so an upload holds at most twice what it has sent plus 4 KiB) and given back once each file is stored: a request that finds too little left answers 503 with Retry-After, so clients trickling many large files cannot exhaust the gateway's memory (its container has 2 GiB). At least MAX_FILE_BYTES + 1."`
	UploadMinRate  int64  `env:"UPLOAD_MIN_RATE" default:"1024" doc:"Bytes a second an upload must average over every 60 s while its body is read (1 KiB/s: a 30 MB file within 8.5 hours; 0: only an upload that sends nothing for 60 s is refused): a slower one is answered 422 (errno 13, \"The upload is too slow\"), so that a client trickling its body (a byte a second) does not hold its connection, and nginx's, and what it sent of UPLOAD_MEMORY_BYTES for as long as it likes. At most 1073741824."`
	AnswerMinRate  int64  `env:"ANSWER_MIN_RATE" default:"1024" doc:"Bytes a second a client must read its answer at, over every 60 s (1 KiB/s; 0: answers are written with no time limit): the answer is written in pieces of 60 times this, each of which must be taken within 60 s, or the connection is closed (logged at WARN: client did not read its answer), so that a client that sends a request and never reads the answer (crops of return_crops=true, a fulltext, a large /result), or reads it a byte a second, does not hold its connection and its MAX_INFLIGHT slot for as long as it likes. Under docker compose nginx reads the answers at once and buffers them. At most 1073741824."`
	MaxInFlight    int    `env:"MAX_INFLIGHT" default:"64" doc:"Synchronous requests processed at once per gateway; more answer 503 with Retry-After."`
	AsyncRunners   int    `env:"ASYNC_RUNNERS" default:"2" doc:"Async tasks one gateway runs at once."`
	AuthMode       string `env:"AUTH_MODE" default:"open" doc:"Token check of the hosted paths /classify and /recognize: open (any non-empty token), file (TOKENS_FILE), kv (NATS KV bucket docsuite_tokens, which the gateway creates: one key per accepted token, the hex sha256 of the token, any value, e.g. nats kv put docsuite_tokens $(printf %s TOKEN | sha256sum | cut -c1-64) 1), license (equal to LICENSE_TOKEN). /result is not checked again: it answers a task only to the token that created it."`
	TokensFile     string `env:"TOKENS_FILE" default:"" doc:"File with one accepted token per line (AUTH_MODE=file)."`
	LicenseEnforce bool   `env:"LICENSE_ENFORCE" default:"false" doc:"true: refuse requests with 403 unless the license daemon reports a valid license (production, as docker-compose.yml sets it for the gateways, whatever the env file says); false: evaluation mode, every request served without a license, which the gateway says at start (WARNING) and in /healthcheck (checks.license: not enforced)."`
	LicenseToken   string `env:"LICENSE_TOKEN" default:"" secret:"true" doc:"Installation license key (also checked by AUTH_MODE=license)."`
	LicenseGrace   int    `env:"LICENSE_GRACE_SECONDS" default:"259200" doc:"Seconds (0 to a year) a valid verdict is still honoured, counted from the license server's last answer, once the server cannot be reached or the license daemon falls silent (72 h). While the server answers every LICENSE_CHECK_INTERVAL the verdict holds, however the two compare."`
}

// Stage is the configuration of a model-running stage worker (cropper,
// classifier, orienter, ocr, fraud).
type Stage struct {
	Common
	Models
	Worker
	Extraction      `roles:"ocr"`
	FaceAPIURL      string `env:"FACE_API_URL" default:"" doc:"Face API address, for the face operations of the service family (face comparison, selfie check, liveness), which this release does not offer: read by the stage workers and shown by --check-config, used by nothing yet (the all-in-one does not read it)."`
	FaceAPIUser     string `env:"FACE_API_USERNAME" default:"" doc:"Face API user name (see FACE_API_URL: used by nothing yet)."`
	FaceAPIPassword string `env:"FACE_API_PASSWORD" default:"" secret:"true" doc:"Face API password (see FACE_API_URL: used by nothing yet)."`
	TempDir         string `env:"TMPDIR" default:"" doc:"Directory for temporary files of PDF/DJVU decoding (default: system temp): a copy of each PDF or DJVU posted, kept while its pages are cut and removed 30 s after the last one, with or without further requests; what a killed process left there is removed by the decoding roles once unmodified for 4 x PIPELINE_TIMEOUT + 5 minutes (at start and every 10 minutes)."`
}

// License is the configuration of the license daemon.
type License struct {
	Common
	Token      string `env:"LICENSE_TOKEN" default:"" secret:"true" doc:"Installation license key sent to the license server."`
	URL        string `env:"LICENSE_URL" default:"" doc:"HTTPS address the license daemon POSTs to."`
	Proxy      string `env:"LICENSE_PROXY" default:"" doc:"HTTP(S) proxy for reaching LICENSE_URL, http://host:port or http://user:password@host:port (the password masked by --check-config) (default: HTTPS_PROXY from the environment)."`
	Interval   int    `env:"LICENSE_CHECK_INTERVAL" default:"3600" doc:"Seconds between license checks, at most a year (after a check that got no answer or a refusal the daemon asks again sooner, after 1 minute doubling up to this, so a renewed license is picked up within minutes; when the requests left run out between checks it asks at once)."`
	InstanceID string `env:"INSTANCE_ID" default:"" doc:"Name of this installation in the license daemon's reports to the license server (default: the host name)."`
	CAFile     string `env:"LICENSE_CA_FILE" default:"" doc:"Extra CA bundle for the license server (PEM)."`
}

// Janitor is the configuration of the janitor.
type Janitor struct {
	Common
	Interval int `env:"JANITOR_INTERVAL" default:"300" doc:"Seconds between sweeps (at most a year)."`
}

// AllInOne is the configuration of the single-process installation: every
// role's settings plus where the embedded NATS keeps its data.
type AllInOne struct {
	Gateway
	Models
	Worker
	Extraction
	NATSDir         string `env:"NATS_STORE_DIR" default:"data/nats" doc:"JetStream storage of the embedded NATS server (all-in-one)."`
	NATSPort        int    `env:"NATS_PORT" default:"-1" doc:"Port of the embedded NATS server (-1: random loopback port; 1 to 65535: that port, to attach separate workers)."`
	JanitorInterval int    `env:"JANITOR_INTERVAL" default:"300" doc:"Seconds between janitor sweeps (at most a year)."`
	TempDir         string `env:"TMPDIR" default:"" doc:"Directory for temporary files of PDF/DJVU decoding (default: system temp): a copy of each PDF or DJVU posted, kept while its pages are cut and removed 30 s after the last one, with or without further requests; what a killed process left there is removed by the decoding roles once unmodified for 4 x PIPELINE_TIMEOUT + 5 minutes (at start and every 10 minutes)."`
}
