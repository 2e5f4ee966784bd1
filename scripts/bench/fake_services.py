#!/usr/bin/env python3
"""Local stand-ins for the bot check and the CRM during the load benchmark:
POST /siteverify answers {"success": true}; POST /lead and /case answer 200.
Prints the port it listens on, then serves until killed."""
import http.server
import json
import socketserver
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("content-length", "0"))
        self.rfile.read(length)
        body = json.dumps({"success": True}).encode() if self.path == "/siteverify" else b"ok"
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)
