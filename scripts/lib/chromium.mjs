// Debian's Chromium as the look-at-it scripts launch it (screenshots, the console walk).
import { chromium } from '@playwright/test';

export const launchChromium = (extraArgs = []) =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
