// The region coverage payload shared by /region and /region/data.
import type { CoverageTotals } from '../lib/coverage-figures';
import { load } from './page-data';

export interface CityDto {
  province: string;
  city: string;
  carriers: string[];
  nodeCount: number;
  availability: number;
  dynamicOk: boolean;
  staticOk: boolean;
}

export interface Coverage {
  hot: CityDto[];
  provinces: { province: string; cities: CityDto[] }[];
  totals: CoverageTotals;
}

/** Region.GetCoverage, or an empty coverage when it fails. */
export async function loadCoverage(): Promise<Coverage> {
  return (
    (await load('Region.GetCoverage', {}, null)) ?? {
      hot: [],
      provinces: [],
      totals: { cities: 0, provinces: 0, nodes: 0, availability: 0 },
    }
  );
}
