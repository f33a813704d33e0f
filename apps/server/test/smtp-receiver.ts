import { createServer, type Server } from 'node:net';

/**
 * A small SMTP server for tests: it speaks the dialogue (greeting, EHLO, MAIL, RCPT, DATA, QUIT) and,
 * at the end of each message, calls `onMessage` with the message's transcript (every line the client
 * sent for it) and `reply`, which the test calls with the answer when it chooses: at once, after a
 * delay (a slow provider), never (a provider that holds), or with a refusal such as
 * `451 4.3.0 try again later`.
 */
export function smtpReceiver(onMessage: (transcript: string, reply: (line: string) => void) => void): Server {
  return createServer((socket) => {
    let buffer = '';
    let inData = false;
    let transcript = '';
    socket.on('error', () => undefined);
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let index: number;
      while ((index = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        transcript += `${line}\n`;
        if (inData) {
          if (line === '.') {
            inData = false;
            const done = transcript;
            transcript = '';
            onMessage(done, (answer) => socket.write(`${answer}\r\n`));
          }
          continue;
        }
        const command = line.slice(0, 4).toUpperCase();
        if (command === 'EHLO' || command === 'HELO') socket.write('250 test\r\n');
        else if (command === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (command === 'QUIT') {
          socket.write('221 bye\r\n');
          socket.end();
        } else socket.write('250 ok\r\n');
      }
    });
  });
}
