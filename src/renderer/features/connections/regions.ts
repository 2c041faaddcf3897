/** The regions people pick most; the field also takes any other region as free text. */
export const commonRegions: { code: string; name: string }[] = [
  { code: 'us-east-1', name: 'US East (N. Virginia)' },
  { code: 'us-east-2', name: 'US East (Ohio)' },
  { code: 'us-west-1', name: 'US West (N. California)' },
  { code: 'us-west-2', name: 'US West (Oregon)' },
  { code: 'ca-central-1', name: 'Canada (Central)' },
  { code: 'sa-east-1', name: 'South America (São Paulo)' },
  { code: 'eu-west-1', name: 'Europe (Ireland)' },
  { code: 'eu-west-2', name: 'Europe (London)' },
  { code: 'eu-west-3', name: 'Europe (Paris)' },
  { code: 'eu-central-1', name: 'Europe (Frankfurt)' },
  { code: 'eu-central-2', name: 'Europe (Zurich)' },
  { code: 'eu-north-1', name: 'Europe (Stockholm)' },
  { code: 'eu-south-1', name: 'Europe (Milan)' },
  { code: 'ap-south-1', name: 'Asia Pacific (Mumbai)' },
  { code: 'ap-southeast-1', name: 'Asia Pacific (Singapore)' },
  { code: 'ap-southeast-2', name: 'Asia Pacific (Sydney)' },
  { code: 'ap-northeast-1', name: 'Asia Pacific (Tokyo)' },
  { code: 'ap-northeast-2', name: 'Asia Pacific (Seoul)' },
  { code: 'ap-east-1', name: 'Asia Pacific (Hong Kong)' },
  { code: 'me-central-1', name: 'Middle East (UAE)' },
  { code: 'af-south-1', name: 'Africa (Cape Town)' },
];

/** Mirrors the contract's region rule so the form can say what is wrong before saving. */
export function isValidRegion(region: string): boolean {
  return /^[a-z]{2}(-[a-z]+)+-\d$|^local$/.test(region);
}

export const connectionColors = [
  '#1f6feb',
  '#2da44e',
  '#8250df',
  '#bf8700',
  '#e16f24',
  '#cf222e',
  '#1b7c83',
  '#6e7781',
];

export const endpointPresets = [
  { label: 'DynamoDB Local', url: 'http://localhost:8000' },
  { label: 'LocalStack', url: 'http://localhost:4566' },
];
