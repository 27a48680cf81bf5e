# syntax=docker/dockerfile:1.7
# docsuite images, all from one file on Debian 12 (bookworm):
#   app    (default) every role binary, the ONNX models, the ONNX Runtime library;
#          one container per role: `command: ["gateway"]`, ["cropper"], ...
#   nginx  Debian's nginx 1.22 with deploy/nginx: plain HTTP, or HTTPS with DOCSUITE_TLS=on
#   nats   Debian's nats-server 2.9 with deploy/nats
#   minio  the MinIO server built from the same pinned source as scripts/install-minio.sh
# Every image runs as an unprivileged user. docker-compose.yml builds them all:
#   docker compose --env-file deploy/compose/docsuite.env build
# Before building the app image: `make models` (models/manifest.json) and
# scripts/install-onnxruntime.sh (.cache/onnxruntime/libonnxruntime.so.1)
# and scripts/install-ocr-models.sh (.cache/ocr-models/, read by the ocr, classifier and orienter roles).

ARG DEBIAN_IMAGE=debian:12-slim
ARG GO_IMAGE=golang:1.26-bookworm

# ---- build: every role binary, and the list of Debian packages they need at run time
FROM ${GO_IMAGE} AS build
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential pkg-config \
      libopencv-dev libtesseract-dev libleptonica-dev libheif-dev libjpeg62-turbo-dev \
 && rm -rf /var/lib/apt/lists/*
ENV GOFLAGS=-buildvcs=false CGO_ENABLED=1
WORKDIR /src
COPY . .
# The ONNX Runtime library is pinned by checksum (docs/operations.md, "Install").
ARG ORT_SHA256=ffb75a925ba05e47b235bb66e3e3911714a80b328a9c9425539feb204aa32a23
RUN test -f models/manifest.json || { echo "models/manifest.json missing: run make models first" >&2; exit 1; } \
 && echo "${ORT_SHA256}  .cache/onnxruntime/libonnxruntime.so.1" | sha256sum -c - \
 || { echo "ONNX Runtime library missing or wrong: run scripts/install-onnxruntime.sh" >&2; exit 1; }
# Every service module whose package is a command (one module per role, so
# ./services/... does not match across them: list each one).
RUN --mount=type=cache,target=/root/.cache/go-build --mount=type=cache,target=/go/pkg/mod \
    mkdir -p /out/bin \
 && build_id=$(scripts/build-id.sh) \
 && for dir in services/*/; do \
      role=$(basename "$dir"); \
      [[ $(go list -f '{{.Name}}' "./services/$role") == main ]] || continue; \
      go build -trimpath -ldflags="-s -w -X docsuite/pkg/version.Build=${build_id}" -o "/out/bin/$role" "./services/$role" || exit 1; \
    done \
 && ls /out/bin
# Shared libraries of the binaries and of ONNX Runtime -> the Debian packages owning them.
RUN for f in /out/bin/* .cache/onnxruntime/libonnxruntime.so.1; do ldd "$f"; done \
    | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u \
    | while read -r lib; do \
        dpkg -S "$lib" 2>/dev/null || dpkg -S "${lib#/usr}" 2>/dev/null || dpkg -S "/usr$lib" 2>/dev/null \
        || { echo "no package owns $lib" >&2; exit 1; }; \
      done \
    | cut -d: -f1 | sort -u > /out/runtime-packages.txt \
 && cat /out/runtime-packages.txt

# ---- minio: the object store, same pinned source as scripts/install-minio.sh
FROM ${GO_IMAGE} AS minio-build
ARG MINIO_VERSION=v0.0.0-20260212201848-7aac2a2c5b7c
RUN --mount=type=cache,target=/root/.cache/go-build --mount=type=cache,target=/go/pkg/mod \
    GOBIN=/out GOFLAGS=-buildvcs=false GOWORK=off go install "github.com/minio/minio@${MINIO_VERSION}"

FROM ${DEBIAN_IMAGE} AS minio
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin minio \
 && mkdir -p /data && chown minio:minio /data
COPY --from=minio-build /out/minio /usr/local/bin/minio
USER 10001:10001
VOLUME ["/data"]
EXPOSE 9000
ENTRYPOINT ["minio", "server", "/data", "--address", ":9000", "--console-address", ":9001", "--quiet"]

# ---- nats: Debian's nats-server with JetStream
FROM ${DEBIAN_IMAGE} AS nats
RUN apt-get update && apt-get install -y --no-install-recommends nats-server curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin natsd \
 && mkdir -p /data/jetstream && chown -R natsd:natsd /data
COPY deploy/nats/ /etc/docsuite/nats/
ENV NATS_SERVER_NAME=nats-1 NATS_JETSTREAM_DIR=/data/jetstream
USER 10001:10001
VOLUME ["/data"]
EXPOSE 4222 8222 6222
ENTRYPOINT ["nats-server"]
CMD ["-c", "/etc/docsuite/nats/nats.conf"]

# ---- nginx: the load balancer on port 80, unprivileged (compose lowers
# net.ipv4.ip_unprivileged_port_start so it may bind 80). Its entrypoint,
# docsuite-nginx, runs nginx with /etc/docsuite/nginx as it is (plain HTTP)
# or, with DOCSUITE_TLS=on, with listen-tls.conf as listen.conf (HTTPS on
# the same port; certificate and key mounted at /etc/docsuite/tls); it
# replaces itself with nginx, which stays PID 1 (SIGQUIT, SIGHUP).
FROM ${DEBIAN_IMAGE} AS nginx
RUN apt-get update && apt-get install -y --no-install-recommends nginx curl \
 && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/* \
 && useradd --system --uid 10001 --user-group --no-create-home --shell /usr/sbin/nologin docsuite
COPY deploy/nginx/ /etc/docsuite/nginx/
COPY --chmod=0755 deploy/nginx/docsuite-nginx.sh /usr/local/bin/docsuite-nginx
USER 10001:10001
EXPOSE 80
STOPSIGNAL SIGQUIT
ENTRYPOINT ["docsuite-nginx"]

# ---- app (default target): every role, models and ONNX Runtime
FROM ${DEBIAN_IMAGE} AS app
COPY --from=build /out/runtime-packages.txt /tmp/runtime-packages.txt
# Run-time libraries found above, plus the helpers the decoders call
# (pdftoppm, qpdf, ddjvu/djvused), Tesseract's language data, OpenCV's Haar face
# cascade (the fraud worker's portrait check) and curl for health checks.
RUN apt-get update \
 && xargs -a /tmp/runtime-packages.txt apt-get install -y --no-install-recommends \
      ca-certificates curl tzdata poppler-utils qpdf djvulibre-bin \
      tesseract-ocr-eng tesseract-ocr-rus tesseract-ocr-osd tesseract-ocr-jpn opencv-data \
 && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages.txt \
 && useradd --system --uid 10001 --user-group --home-dir /opt/docsuite --shell /usr/sbin/nologin docsuite \
 && mkdir -p /opt/docsuite/data && chown docsuite:docsuite /opt/docsuite/data
WORKDIR /opt/docsuite
COPY --from=build /out/bin/ /opt/docsuite/bin/
COPY --from=build /src/models/ /opt/docsuite/models/
COPY --from=build /src/.cache/onnxruntime/libonnxruntime.so.1 /opt/docsuite/lib/libonnxruntime.so.1
COPY --from=build /src/.cache/ocr-models/ /opt/docsuite/.cache/ocr-models/
ENV PATH=/opt/docsuite/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    MODELS_DIR=/opt/docsuite/models \
    ONNXRUNTIME_LIB=/opt/docsuite/lib/libonnxruntime.so.1 \
    OMP_THREAD_LIMIT=1 \
    OPENCV_LOG_LEVEL=ERROR \
    ORT_DISABLE_TELEMETRY=1 \
    HTTP_ADDR=0.0.0.0:8080
USER 10001:10001
VOLUME ["/opt/docsuite/data"]
EXPOSE 8080
# Without a command the image runs the all-in-one (evaluation mode, folder store under data/).
CMD ["allinone"]
