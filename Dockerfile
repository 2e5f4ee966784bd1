# syntax=docker/dockerfile:1
# Tally's container image: built with cargo-leptos, run as UID 1001 on port 3001.
# Build a numbered release:  docker build --build-arg VERSION=0.1.0 -t tally:v0.1.0 .

FROM rust:1.95-bookworm AS build
# The same tool versions scripts/setup.sh installs on a developer machine.
RUN rustup target add wasm32-unknown-unknown \
 && cargo install cargo-leptos --version 0.3.10 --locked --features no_downloads \
 && cargo install wasm-bindgen-cli --version 0.2.130
RUN apt-get update \
 && apt-get install -y --no-install-recommends npm \
 && npm install -g binaryen@132.0.0 \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cargo leptos build --release --split --precompress \
 && target/server-release/tally pack-wasm

# libssl3: webauthn-rs (security keys) links the system OpenSSL.
FROM debian:bookworm-slim AS runtime
ARG VERSION=0.0.0-dev
LABEL org.opencontainers.image.title="Tally" \
      org.opencontainers.image.description="Self-hosted tracker for bills, debts and subscriptions" \
      org.opencontainers.image.version="${VERSION}"
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates libssl3 tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 1001 tally \
 && useradd --uid 1001 --gid 1001 --home-dir /app --no-create-home --shell /usr/sbin/nologin tally \
 && mkdir -p /app /data /app/logs \
 && chown 1001:1001 /data /app/logs
COPY --from=build /src/target/server-release/tally /app/tally
COPY --from=build /src/target/server-release/hash.txt /app/hash.txt
COPY --from=build /src/target/site /app/site
ENV LEPTOS_SITE_ADDR=0.0.0.0:3001 \
    LEPTOS_SITE_ROOT=/app/site \
    LEPTOS_HASH_FILES=true \
    DATA_DIR=/data \
    LOG_DIR=/app/logs \
    RUST_LOG=info \
    TALLY_IMAGE_VERSION="${VERSION}"
WORKDIR /app
USER 1001:1001
EXPOSE 3001
VOLUME ["/data", "/app/logs"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["/app/tally", "health"]
ENTRYPOINT ["/app/tally"]
CMD ["serve"]
