// The Festina extension: starts `festina lsp` (the language server built
// into the festina command) on standard input and output for every
// Festina file, and lets VS Code's language client do the rest.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('festina').get('path') || 'festina';
  const serverOptions = {
    command,
    args: ['lsp'],
    transport: TransportKind.stdio,
  };
  const clientOptions = {
    documentSelector: [{ scheme: 'file', language: 'festina' }],
  };
  client = new LanguageClient('festina', 'Festina', serverOptions, clientOptions);
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
